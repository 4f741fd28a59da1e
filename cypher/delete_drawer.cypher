MATCH (d:Drawer {id: $id})
DETACH DELETE d
RETURN count(*) AS deleted
