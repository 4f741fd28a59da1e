// A job as its readers see it: its items (a checkpoint's, up to 10,000) stay in the graph;
// only `claim_job` hands them out, to the runner (design §4.4).
CREATE (j:Job)
SET j += $props
RETURN j {.*, items: null} AS job
