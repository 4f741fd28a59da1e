CREATE INDEX drawer_scope IF NOT EXISTS FOR (d:Drawer) ON (d.wing, d.room)
