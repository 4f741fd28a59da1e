// plan: CartesianProduct — two unique-index seeks of one entity each
MATCH (a:Entity {id: $id})
MATCH (b:Entity {id: $other})
OPTIONAL MATCH (a)-[l:POSSIBLY_SAME_AS]-(b)
WITH a, b, l
WHERE l IS NOT NULL
RETURN properties(b) AS entity, startNode(l) = a AS is_newer, properties(l) AS link
