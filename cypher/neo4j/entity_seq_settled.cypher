// `entity_seq` once no writer holds the counter (`Tx.run_settled`, a transaction of its own).
// Setting the counter to itself takes its write lock before reading it (a direct dependency),
// and a writer holds that lock until its commit is applied: Neo4j shows a commit to others
// part by part, and the entities it stamped could still be missing beside its new value.
OPTIONAL MATCH (c:Meta {name: 'entity_seq'})
FOREACH (held IN CASE WHEN c IS NULL THEN [] ELSE [c] END | SET held.value = held.value)
RETURN coalesce(c.value, 0) AS value, c.epoch AS epoch
