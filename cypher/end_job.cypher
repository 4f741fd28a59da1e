// A runner ends its job (succeeded, failed, or queued again for the next start): only while the
// claim that holds it ($owner and its fencing token $claim) still does and the job still runs.
// A runner whose job was taken over or cancelled changes nothing. The job's write lock comes
// first: Neo4j reads without locks, so the owner compared before it could be one another
// transaction is changing. A job that ends drops its payload (a checkpoint's items) in the
// statement that ends it: the items served only its run (design §8.1).
MATCH (j:Job {id: $id})
SET j.write_lock = true
WITH j
WHERE j.owner = $owner AND j.claim = $claim AND j.status = 'running'
SET j += $changes
WITH j
FOREACH (ended IN CASE WHEN j.status IN ['succeeded', 'failed', 'cancelled'] THEN [j] ELSE [] END |
  SET ended.items = null)
RETURN j.status AS status
