// plan: CartesianProduct — two unique-index seeks of one node each, per pair
UNWIND $pairs AS pair
MATCH (d:Drawer {id: pair.drawer})
MATCH (e:Entity {id: pair.entity})
WHERE (d)-[:MENTIONS]->(e)
RETURN d.id AS drawer, e.id AS entity
