// `drawer_seq` once no writer holds the counter (`Tx.run_settled`, a transaction of its own).
// Setting the counter to itself takes its write lock before reading it (a direct dependency),
// and a writer holds that lock until its commit is applied: Neo4j shows a commit to others
// part by part, and the drawers it stamped could still be missing beside its new value.
OPTIONAL MATCH (:Meta {name: 'drawer_seq'})-[n:SEQUENCE]->()
FOREACH (held IN CASE WHEN n IS NULL THEN [] ELSE [n] END | SET held.value = held.value)
RETURN coalesce(n.value, 0) AS value, n.epoch AS epoch, coalesce(n.deletes, 0) AS deletes
