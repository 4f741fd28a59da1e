UNWIND $rows AS row
MATCH (d:Drawer {id: row.id})
SET d.unembedded = true
RETURN count(*) AS marked
