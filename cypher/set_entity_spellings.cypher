MERGE (c:Meta {name: 'entity_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
WITH c.value AS seq
MATCH (e:Entity {id: $id})
SET e += $spellings, e.seq = seq
RETURN properties(e) AS entity
