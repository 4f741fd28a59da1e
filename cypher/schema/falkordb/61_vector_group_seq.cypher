CREATE INDEX FOR (g:VectorGroup) ON (g.seq)
