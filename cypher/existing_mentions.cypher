// The MENTIONS edges a batch meets again, with the spellings each holds (an edge with one
// spelling stores none: its `name` is it).
UNWIND $pairs AS pair
MATCH (d:Drawer {id: pair.drawer})
MATCH (e:Entity {id: pair.entity})
MATCH (d)-[m:MENTIONS]->(e)
RETURN d.id AS drawer, e.id AS entity, coalesce(m.spellings, [m.name]) AS spellings
