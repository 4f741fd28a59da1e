// plan: CartesianProduct — two unique-index seeks of one node each, per pair
// The MENTIONS edges a batch meets again, with the spellings each holds (an edge with one
// spelling stores none: its `name` is it). Both ends are bound first, so the edge is found
// between them, never by walking a drawer's or an entity's other mentions.
UNWIND $pairs AS pair
MATCH (d:Drawer {id: pair.drawer})
MATCH (e:Entity {id: pair.entity})
OPTIONAL MATCH (d)-[m:MENTIONS]->(e)
WITH d, e, m
WHERE m IS NOT NULL
RETURN d.id AS drawer, e.id AS entity, coalesce(m.spellings, [m.name]) AS spellings
