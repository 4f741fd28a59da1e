// Current drawers still waiting for a vector, for hygiene: every drawer is written `unembedded`
// and loses the mark when its vector is stored or it is closed, so the count reads only them
// (from the `drawer_unembedded` index on Neo4j).
MATCH (d:Drawer {unembedded: true})
WHERE d.valid_to IS NULL
  AND ($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)
RETURN count(d) AS missing
