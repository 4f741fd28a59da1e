UNWIND $rows AS row
MATCH (d:Drawer {id: row.id})
SET d.terms = null, d.terms_text = null
RETURN count(*) AS updated
