CREATE INDEX entity_key IF NOT EXISTS FOR (e:Entity) ON (e.key)
