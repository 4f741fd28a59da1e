UNWIND $ids AS id
MATCH (d:Drawer {id: id})
RETURN d {.*, embedding: null, terms: null, terms_text: null} AS drawer
