MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity {id: $id})
RETURN d.id AS drawer, properties(m) AS mention
ORDER BY m.created_at DESC, d.id
LIMIT $limit
