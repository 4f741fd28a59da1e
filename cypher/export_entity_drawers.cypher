MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity {id: $id})
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer,
       properties(m) AS mention
