// plan: NodeByLabelScan — the few `Migration` nodes, one per version
MATCH (m:Migration)
RETURN m.version AS version, m.name AS name, m.applied_at AS applied_at, m.changed AS changed
ORDER BY version
