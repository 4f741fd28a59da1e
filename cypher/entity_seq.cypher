// Where the entity sequence stands (`graph.memory_index`): no node yet reads as 0.
OPTIONAL MATCH (c:Meta {name: 'entity_seq'})
RETURN coalesce(c.value, 0) AS value, c.epoch AS epoch
