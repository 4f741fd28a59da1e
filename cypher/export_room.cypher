MATCH (w:Wing {name: $wing})-[:HAS_ROOM]->(r:Room {wing: $wing, name: $room})
RETURN properties(w) AS wing, properties(r) AS room
