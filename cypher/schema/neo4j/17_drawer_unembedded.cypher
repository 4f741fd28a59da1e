CREATE INDEX drawer_unembedded IF NOT EXISTS FOR (d:Drawer) ON (d.unembedded)
