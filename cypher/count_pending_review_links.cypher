MATCH ()-[l:POSSIBLY_SAME_AS]->()
WHERE l.status = 'pending'
RETURN count(l) AS pending
