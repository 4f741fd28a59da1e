UNWIND $pairs AS pair
MATCH (d:Drawer {id: pair.drawer})-[:MENTIONS]->(e:Entity {id: pair.entity})
RETURN d.id AS drawer, e.id AS entity
