// The locks of a unit that needs several (`graph.entities.kind_locks`), taken in the order of
// $names, which the caller sorts: two units never hold one each and wait for the other's.
// Writing a property of a constrained node takes its write lock until commit.
UNWIND $names AS name
MERGE (l:Lock {name: name})
SET l.taken = coalesce(l.taken, 0) + 1
