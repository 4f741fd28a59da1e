DROP INDEX FOR (d:Drawer) ON (d.terms)
