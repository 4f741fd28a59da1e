MATCH (e:Entity {id: $id})-[l:POSSIBLY_SAME_AS]-(other:Entity)
RETURN other {.*, dkeys: null, dkeys_text: null} AS entity, startNode(l) = e AS outgoing,
       properties(l) AS link
