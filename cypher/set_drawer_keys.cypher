UNWIND $rows AS row
MATCH (d:Drawer {id: row.id})
SET d += row.props
RETURN count(*) AS updated
