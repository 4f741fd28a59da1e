CREATE INDEX FOR (e:Entity) ON (e.seq)
