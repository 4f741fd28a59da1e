MATCH (:Entity)-[l:POSSIBLY_SAME_AS]->(:Entity)
WHERE coalesce(l.status, 'pending') = 'pending'
RETURN count(l) AS pending
