MATCH (:Entity)-[l:POSSIBLY_SAME_AS]->(:Entity)
WHERE l.status = 'pending'
RETURN count(l) AS pending
