CREATE INDEX drawer_seq IF NOT EXISTS FOR (d:Drawer) ON (d.seq)
