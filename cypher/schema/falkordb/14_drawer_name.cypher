CREATE INDEX FOR (d:Drawer) ON (d.name)
