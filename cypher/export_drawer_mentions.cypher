UNWIND $ids AS id
MATCH (d:Drawer {id: id})-[m:MENTIONS]->(e:Entity)
RETURN id AS drawer, e {.*, dkeys: null, dkeys_text: null} AS entity, properties(m) AS mention
