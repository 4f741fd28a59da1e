CALL db.index.fulltext.queryNodes('entity_dkeys', $probes_query, {limit: $limit})
YIELD node
RETURN DISTINCT properties(node) AS entity
