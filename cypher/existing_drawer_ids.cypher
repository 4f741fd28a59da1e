UNWIND $ids AS id
MATCH (d:Drawer {id: id})
RETURN d.id AS id
