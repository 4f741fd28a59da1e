CREATE INDEX job_created IF NOT EXISTS FOR (j:Job) ON (j.created_at)
