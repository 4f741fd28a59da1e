// How many jobs one caller has queued or running, for `api.max_queued_jobs` (design §8.1):
// those of the agent $agent, or with $agent null the operators' (jobs that name no agent).
UNWIND ['queued', 'running'] AS status
MATCH (j:Job {status: status})
WHERE coalesce(j.agent, '') = coalesce($agent, '')
RETURN count(j) AS jobs
