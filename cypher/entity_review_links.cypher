MATCH (e:Entity {id: $id})-[l:POSSIBLY_SAME_AS]-(other:Entity)
RETURN properties(other) AS entity, startNode(l) = e AS is_newer, properties(l) AS link
