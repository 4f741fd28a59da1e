MATCH (j:Job {id: $id})
WHERE j.owner = $owner AND j.status = 'running'
SET j.lease_until = $until
RETURN j.id AS id
