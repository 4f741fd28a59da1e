CREATE INDEX entity_seq IF NOT EXISTS FOR (e:Entity) ON (e.seq)
