CREATE INDEX drawer_fingerprint IF NOT EXISTS FOR (d:Drawer) ON (d.fingerprint)
