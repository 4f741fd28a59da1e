// Extend a named lease that $holder still holds by $ms from now on the database's clock. The
// lease node's write lock comes first: Neo4j reads without locks, so a holder compared before
// it could be one another transaction is changing.
MATCH (l:Lock {name: $name})
SET l.write_lock = true
WITH l
WHERE l.holder = $holder
SET l.expires = timestamp() + $ms
RETURN l.name AS name
