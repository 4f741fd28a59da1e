// One page of every entity, in the database's own order (stable while nothing is created:
// migrations run before the service serves); SKIP, because a sort of the rest per page costs more.
MATCH (e:Entity)
RETURN e {.id, .name, .kind, .aliases, .dkeys} AS entity
SKIP $skip
LIMIT $limit
