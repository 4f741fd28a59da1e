CREATE INDEX FOR (m:Meta) ON (m.name)
