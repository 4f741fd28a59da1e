// Where the vector groups' counter stands (graph/vector_groups.py): its value and the epoch
// drawn when it was created, so that a wiped graph tells.
MATCH (m:Meta {name: 'embeddings'})
RETURN m.groups_epoch AS epoch, coalesce(m.groups, 0) AS value
