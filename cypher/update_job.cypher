// A job as its readers see it: its items (a checkpoint's, up to 10,000) stay in the graph;
// only `claim_job` hands them out, to the runner (design §4.4). Its other properties are named
// (`graph.jobs.Job`): `j {.*, items: null}` had FalkorDB copy the items (~3 MB for 10,000)
// into the map before dropping them, 0.75 ms of a poll's 0.95 ms.
MATCH (j:Job {id: $id})
SET j += $changes
WITH j
// A job that ends drops its payload (a checkpoint's items) in the statement that ends it: the
// items served only its run (design §8.1), and a finished job is kept for 30 days.
FOREACH (ended IN CASE WHEN j.status IN ['succeeded', 'failed', 'cancelled'] THEN [j] ELSE [] END |
  SET ended.items = null)
RETURN j {.id, .kind, .status, .params, .item_count, .progress_done, .progress_total, .result,
  .error, .state, .failures, .files, .created_at, .started_at, .finished_at, .owner,
  .lease_expires, .claim, .attempts, .agent} AS job
