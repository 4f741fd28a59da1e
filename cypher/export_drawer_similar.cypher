UNWIND $ids AS id
MATCH (d:Drawer {id: id})-[s:SIMILAR_TO]-(other:Drawer)
RETURN id AS drawer, startNode(s) = d AS outgoing,
       other {.*, embedding: null, terms: null, terms_text: null} AS other,
       properties(s) AS link
