// The chunks a mining root has in a room (current, or retired by this job): which documents
// it mined before, so the ones gone from its tree can be retired. A scan of the room's scope
// index, once per mining job, which reads the whole tree anyway.
MATCH (d:Drawer)
WHERE d.wing = $wing AND d.room = $room AND d.kind = 'file' AND d.origin_root = $root
  AND (d.valid_to IS NULL OR d.retired_by = $job)
RETURN d.name AS name, d.source_uri AS document
