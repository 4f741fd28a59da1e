UNWIND $new_entities AS row
CREATE (e:Entity)
SET e += row
WITH count(*) AS created
UNWIND $spelling_updates AS row
MATCH (e:Entity {id: row.id})
SET e += row
WITH count(*) AS updated
UNWIND $mentions AS row
MATCH (d:Drawer {id: row.drawer})
MATCH (e:Entity {id: row.entity})
MERGE (d)-[m:MENTIONS]->(e)
ON CREATE SET m += row.props
WITH count(*) AS mentioned
UNWIND $links AS row
MATCH (newer:Entity {id: row.newer})
MATCH (older:Entity {id: row.older})
MERGE (newer)-[l:POSSIBLY_SAME_AS]->(older)
ON CREATE SET l += row.props
RETURN count(*) AS linked
