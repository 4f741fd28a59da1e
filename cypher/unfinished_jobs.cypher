MATCH (j:Job)
WHERE j.status IN ['queued', 'running']
RETURN properties(j) AS job
ORDER BY j.created_at, j.id
