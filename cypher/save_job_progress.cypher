// Save a running job's progress: only the fields given, only while `$owner` holds it. Returns
// the job's status and whether the save was made, never the job: its parameters can be large.
MATCH (j:Job {id: $id})
WITH j, coalesce(j.owner = $owner, false) AS held
FOREACH (mine IN CASE WHEN held THEN [j] ELSE [] END | SET mine += $changes)
RETURN j.status AS status, held
