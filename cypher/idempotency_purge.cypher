MATCH (k:IdempotencyKey)
WHERE k.created_at < $cutoff
DELETE k
RETURN count(*) AS purged
