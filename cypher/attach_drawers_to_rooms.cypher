UNWIND $rows AS row
MATCH (d:Drawer {id: row.id})
MERGE (w:Wing {name: row.wing})
MERGE (r:Room {wing: row.wing, name: row.room})
MERGE (w)-[:HAS_ROOM]->(r)
MERGE (r)-[:HAS_DRAWER]->(d)
RETURN count(*) AS attached
