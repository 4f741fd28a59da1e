CREATE INDEX job_status IF NOT EXISTS FOR (j:Job) ON (j.status)
