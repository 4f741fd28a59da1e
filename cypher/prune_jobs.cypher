// Delete at most `$limit` finished jobs that finished before `$before` (ISO-8601 UTC text).
MATCH (j:Job)
WHERE j.status IN ['succeeded', 'failed', 'cancelled'] AND j.finished_at < $before
WITH j LIMIT $limit
DETACH DELETE j
RETURN count(*) AS pruned
