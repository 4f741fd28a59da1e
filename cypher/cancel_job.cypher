// Cancel a job that has not finished; its runner notices at its next progress save. A finished
// job is left as it is. The owner stays, so the runner's last save is still its own. Its payload
// (a checkpoint's items) goes: the runner has read it already, and nobody will again.
MATCH (j:Job {id: $id})
WHERE j.status IN ['queued', 'running']
SET j.status = 'cancelled', j.finished_at = $now, j.lease_until = null, j.items = null
RETURN j.id AS id
