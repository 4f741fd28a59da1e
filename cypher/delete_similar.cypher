// plan: CartesianProduct — two unique-index seeks of one drawer each
MATCH (a:Drawer {id: $id})
MATCH (b:Drawer {id: $other})
OPTIONAL MATCH (a)-[s:SIMILAR_TO]-(b)
DELETE s
RETURN count(s) AS deleted
