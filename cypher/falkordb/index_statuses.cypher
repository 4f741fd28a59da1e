CALL db.indexes() YIELD status RETURN status
