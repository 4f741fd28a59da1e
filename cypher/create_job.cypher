CREATE (j:Job)
SET j += $props
RETURN properties(j) AS job
