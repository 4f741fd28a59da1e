CREATE INDEX drawer_vector_hash IF NOT EXISTS FOR (d:Drawer) ON (d.vector_hash)
