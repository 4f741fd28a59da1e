// Where the drawer sequence stands (`graph.drawer_index`): no node yet reads as 0.
OPTIONAL MATCH (c:Meta {name: 'drawer_seq'})
RETURN coalesce(c.value, 0) AS value, c.epoch AS epoch
