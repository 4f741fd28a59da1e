MERGE (l:Lock {name: $name}) SET l.taken = coalesce(l.taken, 0) + 1
