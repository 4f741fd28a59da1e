MATCH (d:Drawer)
WHERE d.terms_scheme IS NULL OR d.terms_scheme <> $scheme
RETURN d.id AS id, d.wing AS wing, d.room AS room, d.content AS content
LIMIT $limit
