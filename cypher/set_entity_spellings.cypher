MATCH (e:Entity {id: $id})
SET e += $spellings
RETURN properties(e) AS entity
