CREATE INDEX FOR (d:Drawer) ON (d.content_hash)
