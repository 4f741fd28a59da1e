// The lock nodes some unit created under a prefix (the kinds that have an `entities` lock):
// a prefix seek on the unique index of `Lock.name`.
MATCH (l:Lock)
WHERE l.name STARTS WITH $prefix
RETURN l.name AS name
