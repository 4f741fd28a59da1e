UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e += row.props
RETURN count(*) AS updated
