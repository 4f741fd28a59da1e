CREATE INDEX FOR (d:Drawer) ON (d.vector_hash)
