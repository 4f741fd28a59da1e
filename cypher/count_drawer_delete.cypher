// A drawer deleted (`graph.drawers.delete_drawer`): the drawer sequence counts it. A delete
// leaves nothing to stamp, so an instance that sees the count move by a delete it did not make
// forgets the drawers it knows (`graph.drawer_index`). The node is created as the statements
// that stamp create it, for drawers stored before the sequence existed.
MERGE (c:Meta {name: 'drawer_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.deletes = coalesce(c.deletes, 0) + 1
RETURN c.value AS value, c.epoch AS epoch, c.deletes AS deletes
