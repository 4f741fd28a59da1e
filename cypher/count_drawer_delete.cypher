// A drawer deleted (`graph.drawers.delete_drawer`): the drawer sequence counts it. A delete
// leaves nothing to stamp, so an instance that sees the count move by a delete it did not make
// forgets the drawers it knows (`graph.drawer_index`). The node exists: every drawer was
// created by a statement that advanced the sequence.
MATCH (c:Meta {name: 'drawer_seq'})
SET c.deletes = coalesce(c.deletes, 0) + 1
RETURN c.value AS value, c.epoch AS epoch, c.deletes AS deletes
