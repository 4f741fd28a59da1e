// Cancel a job that has not finished; its runner notices at its next progress save. A finished
// job is left as it is. The job's write lock comes first: Neo4j reads without locks, and a
// status read before it could be one the runner is changing (a cancel must not overwrite the
// end it commits). The owner stays, so the runner's last save is still its own. Its payload (a
// checkpoint's items) goes: the runner has read it already, and nobody will again.
MATCH (j:Job {id: $id})
SET j.write_lock = true
WITH j
WHERE j.status IN ['queued', 'running']
SET j.status = 'cancelled', j.finished_at = $now, j.lease_expires = null, j.items = null
RETURN j.id AS id
