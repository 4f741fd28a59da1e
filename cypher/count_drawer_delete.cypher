// A drawer deleted (`graph.drawers.delete_drawer`): the drawer sequence counts it. A delete
// leaves nothing to stamp, so an instance that sees the count move by a delete it did not make
// forgets the drawers it knows (`graph.drawer_index`). The node is created as the statements
// that stamp create it, for drawers stored before the sequence existed.
MERGE (c:Meta {name: 'drawer_seq'})
MERGE (c)-[n:SEQUENCE]->(c)
ON CREATE SET n.value = 0, n.epoch = randomUUID()
SET n.deletes = coalesce(n.deletes, 0) + 1
RETURN n.value AS value, n.epoch AS epoch, n.deletes AS deletes
