MERGE (c:Meta {name: 'entity_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + 1
WITH c.value AS seq
UNWIND $rows AS row
CREATE (e:Entity)
SET e += row, e.seq = seq
RETURN count(e) AS created
