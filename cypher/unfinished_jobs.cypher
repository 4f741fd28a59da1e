// A job as its readers see it: its items (a checkpoint's, up to 10,000) stay in the graph;
// only `claim_job` hands them out, to the runner (design §4.4). Its other properties are named
// (`graph.jobs.Job`): `j {.*, items: null}` had FalkorDB copy the items (~3 MB for 10,000)
// into the map before dropping them, 0.75 ms of a poll's 0.95 ms.
MATCH (j:Job)
WHERE j.status IN ['queued', 'running']
RETURN j {.id, .kind, .status, .params, .item_count, .progress_done, .progress_total, .result,
  .error, .state, .failures, .files, .created_at, .started_at, .finished_at, .owner,
  .lease_expires, .claim, .attempts, .agent} AS job
ORDER BY j.created_at, j.id
