MATCH (d:Drawer {id: $id})
RETURN properties(d) AS drawer
