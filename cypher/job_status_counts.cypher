UNWIND $statuses AS status
MATCH (j:Job {status: status})
RETURN status, count(j) AS jobs
