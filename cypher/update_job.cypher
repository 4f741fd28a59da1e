MATCH (j:Job {id: $id})
SET j += $changes
RETURN properties(j) AS job
