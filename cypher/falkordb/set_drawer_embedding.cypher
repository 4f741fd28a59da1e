MATCH (d:Drawer {id: $id})
SET d.embedding = vecf32($vector)
RETURN d.id AS id
