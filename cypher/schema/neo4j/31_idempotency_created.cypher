CREATE INDEX idempotency_created IF NOT EXISTS FOR (k:IdempotencyKey) ON (k.created_at)
