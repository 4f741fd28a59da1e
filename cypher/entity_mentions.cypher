MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity {id: $id})
WHERE $viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer
RETURN d.id AS drawer, properties(m) AS mention
ORDER BY m.created_at DESC, d.id
LIMIT $limit
