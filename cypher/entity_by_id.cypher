MATCH (e:Entity {id: $id})
RETURN properties(e) AS entity
