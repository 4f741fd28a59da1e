CREATE INDEX FOR (d:Drawer) ON (d.wing, d.room)
