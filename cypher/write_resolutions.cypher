// plan: CartesianProduct — the counter node and unique-index seeks of one entity each
// A MENTIONS row either creates its edge (`props`) or, for an edge already stored, sets the
// spellings it gained (`spellings`, `graph.entities.edge_spellings`).
// The entity sequence (`graph.memory_index`) advances when the batch creates or respells
// entities ($bump = 1), and every entity the batch changes carries its value.
MERGE (c:Meta {name: 'entity_seq'})
ON CREATE SET c.value = 0, c.epoch = randomUUID()
SET c.value = c.value + $bump
WITH c.value AS seq
UNWIND $new_entities AS row
CREATE (e:Entity)
SET e += row, e.seq = seq
WITH count(*) AS created
MATCH (c:Meta {name: 'entity_seq'})
WITH c.value AS seq
UNWIND $spelling_updates AS row
MATCH (e:Entity {id: row.id})
SET e += row, e.seq = seq
WITH count(*) AS updated
UNWIND $mentions AS row
MATCH (d:Drawer {id: row.drawer})
MATCH (e:Entity {id: row.entity})
MERGE (d)-[m:MENTIONS]->(e)
ON CREATE SET m += row.props
ON MATCH SET m.spellings = row.spellings
WITH count(*) AS mentioned
UNWIND $links AS row
MATCH (newer:Entity {id: row.newer})
MATCH (older:Entity {id: row.older})
MERGE (newer)-[l:POSSIBLY_SAME_AS]->(older)
ON CREATE SET l += row.props
WITH count(*) AS linked
MATCH (c:Meta {name: 'entity_seq'})
RETURN linked, c.value AS seq, c.epoch AS epoch
