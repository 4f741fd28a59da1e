CREATE INDEX FOR ()-[l:POSSIBLY_SAME_AS]-() ON (l.similarity)
