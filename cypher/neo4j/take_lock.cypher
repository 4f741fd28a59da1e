// A unit's lock on one scope. Writing a property of a constrained node takes its write lock
// until commit. Also the clause that leads a statement run with its lock (`Tx.run_locked`).
MERGE (held:Lock {name: $locked_scope}) SET held.taken = coalesce(held.taken, 0) + 1
