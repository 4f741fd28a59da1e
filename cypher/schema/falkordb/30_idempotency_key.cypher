CREATE INDEX FOR (k:IdempotencyKey) ON (k.key)
