CREATE INDEX FOR (j:Job) ON (j.id)
