// Take a job to run: it is unfinished, and nobody else holds a live lease on it. The caller
// holds the job-claims lock, so two instances never both see it free. `attempts` counts runs.
MATCH (j:Job {id: $id})
WHERE j.status IN ['queued', 'running']
  AND (j.owner IS NULL OR j.owner = $owner OR j.lease_until < $now)
SET j.owner = $owner, j.lease_until = $until, j.status = 'running',
    j.started_at = coalesce(j.started_at, $now), j.attempts = coalesce(j.attempts, 0) + 1
RETURN properties(j) AS job
