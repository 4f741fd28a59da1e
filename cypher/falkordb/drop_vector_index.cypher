DROP VECTOR INDEX FOR (d:Drawer) ON (d.embedding)
