// plan: AllNodesScan — the tests' wipe, never a request's
MATCH (n) DETACH DELETE n
