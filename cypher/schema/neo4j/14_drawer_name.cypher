CREATE INDEX drawer_name IF NOT EXISTS FOR (d:Drawer) ON (d.name)
