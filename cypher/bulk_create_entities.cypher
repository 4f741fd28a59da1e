UNWIND $rows AS row
CREATE (e:Entity)
SET e += row
RETURN count(e) AS created
