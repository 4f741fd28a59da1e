// Save a running job's progress: only the fields given, only while the claim that holds it
// ($owner and its fencing token $claim) still does. The job's write lock comes first: Neo4j
// reads without locks, and a save that compared the owner before it wrote onto a job another
// instance had just claimed. Returns the job's status and whether the save was made, never the
// job: its parameters can be large.
MATCH (j:Job {id: $id})
SET j.write_lock = true
WITH j
WITH j, coalesce(j.owner = $owner AND j.claim = $claim, false) AS held
FOREACH (mine IN CASE WHEN held THEN [j] ELSE [] END | SET mine += $changes)
RETURN j.status AS status, held
