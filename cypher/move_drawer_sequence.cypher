// Migration 12: the drawer sequence's value, epoch and count of deletes move from its Meta node
// to a relationship of that node to itself, where the statements that create drawers advance
// it (`create_drawer` says why). A second run finds no value left on the node.
MATCH (c:Meta {name: 'drawer_seq'})
WHERE c.value IS NOT NULL
MERGE (c)-[n:SEQUENCE]->(c)
ON CREATE SET n.value = c.value, n.epoch = c.epoch, n.deletes = c.deletes
REMOVE c.value, c.epoch, c.deletes, c.written_by
RETURN count(n) AS moved
