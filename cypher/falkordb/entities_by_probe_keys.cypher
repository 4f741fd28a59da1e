UNWIND $probes AS probe
MATCH (e:Entity)
WHERE probe IN e.dkeys
RETURN DISTINCT properties(e) AS entity
