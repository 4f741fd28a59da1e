MERGE (c:Meta {name: 'entity_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
WITH c.value AS seq
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.seq = seq
RETURN count(*) AS numbered
