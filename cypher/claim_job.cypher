// Take a job to run: it is unfinished, and nobody else holds a live lease on it. The caller
// holds the job-claims lock, so two instances never both see it free. `attempts` counts the
// starts since the job was last queued cleanly ($count: 0 when this runner resumes a job it
// paused itself); `was` tells whether the job was found `running`, its last start unfinished.
MATCH (j:Job {id: $id})
WHERE j.status IN ['queued', 'running']
  AND (j.owner IS NULL OR j.owner = $owner OR j.lease_until < $now)
WITH j, j.status AS was
SET j.owner = $owner, j.lease_until = $until, j.status = 'running',
    j.started_at = coalesce(j.started_at, $now), j.attempts = coalesce(j.attempts, 0) + $count
RETURN properties(j) AS job, was
