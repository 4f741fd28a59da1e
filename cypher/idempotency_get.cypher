MATCH (k:IdempotencyKey {key: $key})
RETURN k.fingerprint AS fingerprint, k.status AS status, k.body AS body,
       k.created_at AS created_at
