"""The only door to a graph database, in rooms by subject.

`backends` (the store protocol, FalkorDB, Neo4j, the embedded server, Cypher by name),
`indexes` (the in-memory candidate indexes, no database driver), and the use cases: `drawers`,
`entities`, `review` (duplicates and verdicts), `schema` (migrations, inspection) and `jobs`.
The modules at this level are shared by all rooms: `errors`, `records`, `clock`, `locks`,
`cursors`, `idempotency`, `export`. `api` calls the use-case functions with a `GraphStore`;
each fetches candidates, asks `resolver` for the decision and writes it, with every value
passed as a Cypher parameter.
"""
