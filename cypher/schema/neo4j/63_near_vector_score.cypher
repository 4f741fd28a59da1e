CREATE INDEX near_vector_score IF NOT EXISTS FOR ()-[p:NEAR_VECTOR]-() ON (p.score)
