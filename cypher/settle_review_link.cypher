MATCH (:Entity {id: $id})-[l:POSSIBLY_SAME_AS]-(:Entity {id: $other})
SET l.status = $status, l.settled_at = $now
WITH l
MATCH (newer:Entity {id: $newer})
SET newer += $newer_props
WITH newer
MATCH (older:Entity {id: $older})
SET older += $spellings
RETURN properties(older) AS entity
