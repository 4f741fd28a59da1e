// Where the drawer sequence stands (`graph.drawer_index`): no node yet reads as 0, and so do
// the deletes it counted.
OPTIONAL MATCH (c:Meta {name: 'drawer_seq'})
RETURN coalesce(c.value, 0) AS value, c.epoch AS epoch, coalesce(c.deletes, 0) AS deletes
