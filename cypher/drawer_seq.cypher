// Where the drawer sequence stands (`graph.drawer_index`): no node yet reads as 0, and so do
// the deletes it counted.
OPTIONAL MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
RETURN coalesce(n.value, 0) AS value, n.epoch AS epoch, coalesce(n.deletes, 0) AS deletes
