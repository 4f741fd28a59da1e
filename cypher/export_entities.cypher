UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e {.*, dkeys: null, dkeys_text: null} AS entity
