// Up to $limit expired keys at a time (`graph.idempotency.purge_expired` repeats it): one
// unbounded delete would hold every expired key in one transaction's memory.
MATCH (k:IdempotencyKey)
WHERE k.created_at < $cutoff
WITH k LIMIT $limit
DELETE k
RETURN count(*) AS purged
