MATCH (j:Job {id: $id})
RETURN properties(j) AS job
