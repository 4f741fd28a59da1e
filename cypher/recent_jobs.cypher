MATCH (j:Job)
RETURN properties(j) AS job
ORDER BY j.created_at DESC, j.id DESC
LIMIT $limit
