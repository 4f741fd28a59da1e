// The unfinished jobs a runner ($owner) may claim: its own, nobody's, or those whose lease ran
// out on the database's clock. A job as its readers see it (`job_by_id`): its items stay in the
// graph, and its other properties are named.
MATCH (j:Job)
WHERE j.status IN ['queued', 'running']
  AND (j.owner IS NULL OR j.owner = $owner OR j.lease_expires IS NULL
    OR j.lease_expires < timestamp())
RETURN j {.id, .kind, .status, .params, .item_count, .progress_done, .progress_total, .result,
  .error, .state, .failures, .files, .created_at, .started_at, .finished_at, .owner,
  .lease_expires, .claim, .attempts, .agent} AS job
ORDER BY j.created_at, j.id
