UNWIND $ids AS id
MATCH (d:Drawer {id: id})
WHERE $viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer
RETURN d.id AS id
