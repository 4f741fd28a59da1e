// Take a job to run: it is unfinished, and nobody else holds a live lease on it. The job's write
// lock comes first (`write_lock`): Neo4j reads without locks, so an owner or lease compared
// before it could be one another transaction is changing; after it, the read is of the last
// commit. The caller holds the job-claims lock too, so two claims never both see it free.
// Leases are on the database's clock (`timestamp()`, epoch ms), never an instance's. Each claim
// counts up `claim`, the fencing token every later write of the runner must bring back.
// `attempts` counts the starts since the job was last queued cleanly ($count: 0 when this
// runner resumes a job it paused itself); `was` tells whether the job was found `running`, its
// last start unfinished.
MATCH (j:Job {id: $id})
SET j.write_lock = true
WITH j
WHERE j.status IN ['queued', 'running']
  AND (j.owner IS NULL OR j.owner = $owner OR j.lease_expires IS NULL
    OR j.lease_expires < timestamp())
WITH j, j.status AS was
SET j.owner = $owner, j.claim = coalesce(j.claim, 0) + 1,
    j.lease_expires = timestamp() + $lease_ms, j.status = 'running',
    j.started_at = coalesce(j.started_at, $now), j.attempts = coalesce(j.attempts, 0) + $count
RETURN properties(j) AS job, was
