CREATE INDEX FOR ()-[p:NEAR_VECTOR]-() ON (p.score)
