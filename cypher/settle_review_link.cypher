MATCH (a:Entity {id: $id})
MATCH (b:Entity {id: $other})
OPTIONAL MATCH (a)-[l:POSSIBLY_SAME_AS]-(b)
WITH l
WHERE l IS NOT NULL
SET l.status = $status, l.settled_at = $now
WITH l
MATCH (newer:Entity {id: $newer})
SET newer += $newer_props
WITH newer
MATCH (older:Entity {id: $older})
SET older += $spellings
RETURN properties(older) AS entity
