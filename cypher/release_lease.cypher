// Give a named lease up, if $holder still holds it. The lease node's write lock comes first:
// Neo4j reads without locks, and a release that compared the holder before it could end the
// lease another instance had just taken.
MATCH (l:Lock {name: $name})
SET l.write_lock = true
WITH l
WHERE l.holder = $holder
REMOVE l.holder, l.expires
