MATCH (d:Drawer)
WHERE d.valid_to IS NULL AND d.embedding IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN count(d) AS missing
