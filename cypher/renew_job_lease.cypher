// Extend a running job's lease on the database's clock, only for the claim that holds it
// ($owner and its fencing token $claim). The job's write lock comes first: Neo4j reads without
// locks, and a renewal that compared the owner before it renewed the lease of a job another
// instance had just claimed.
MATCH (j:Job {id: $id})
SET j.write_lock = true
WITH j
WHERE j.owner = $owner AND j.claim = $claim AND j.status = 'running'
SET j.lease_expires = timestamp() + $lease_ms
RETURN j.id AS id
