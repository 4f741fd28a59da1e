MATCH (l:Lock {name: $name})
WHERE l.holder = $holder
REMOVE l.holder, l.until
