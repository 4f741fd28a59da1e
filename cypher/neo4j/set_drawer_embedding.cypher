MATCH (d:Drawer {id: $id})
CALL db.create.setNodeVectorProperty(d, 'embedding', $vector)
RETURN d.id AS id
