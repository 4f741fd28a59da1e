CREATE INDEX vector_group_shared IF NOT EXISTS FOR (g:VectorGroup) ON (g.shared)
