CREATE INDEX FOR (d:Drawer) ON (d.seq)
