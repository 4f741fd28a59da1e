// plan: CartesianProduct — the counter node and unique-index seeks of one entity each
MERGE (c:Meta {name: 'entity_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
WITH c.value AS seq
MATCH (a:Entity {id: $id})
MATCH (b:Entity {id: $other})
OPTIONAL MATCH (a)-[l:POSSIBLY_SAME_AS]-(b)
WITH l, seq
WHERE l IS NOT NULL
SET l.status = $status, l.settled_at = $now, l.alias = $alias
WITH seq
MATCH (newer:Entity {id: $newer})
SET newer.same_as = $same_as, newer.seq = seq
WITH seq
MATCH (older:Entity {id: $older})
SET older += $spellings, older.seq = seq
RETURN properties(older) AS entity
