CREATE INDEX review_link_similarity IF NOT EXISTS FOR ()-[l:POSSIBLY_SAME_AS]-() ON (l.similarity)
