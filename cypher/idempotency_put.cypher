MERGE (k:IdempotencyKey {key: $key})
SET k.fingerprint = $fingerprint, k.status = $status, k.body = $body, k.created_at = $now
