CREATE INDEX drawer_content_hash IF NOT EXISTS FOR (d:Drawer) ON (d.content_hash)
