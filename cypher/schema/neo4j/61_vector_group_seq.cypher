CREATE INDEX vector_group_seq IF NOT EXISTS FOR (g:VectorGroup) ON (g.seq)
