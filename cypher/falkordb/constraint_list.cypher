CALL db.constraints() YIELD label, properties, status RETURN label, properties, status
