// Cancel a job that has not finished; its runner notices at its next progress save. A finished
// job is left as it is. The owner stays, so the runner's last save is still its own.
MATCH (j:Job {id: $id})
WHERE j.status IN ['queued', 'running']
SET j.status = 'cancelled', j.finished_at = $now, j.lease_until = null
RETURN j.id AS id
