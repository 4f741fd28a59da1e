"""The database backends: the `GraphStore` protocol (`store`) and its two implementations.

`falkordb_store` and `neo4j_store` translate driver errors into `graph.errors` once, here;
`embedded` runs the FalkorDB child process, `opener` opens the configured backend, `queries`
loads the Cypher text by name. This room may import the shared `graph` modules, the drivers and
`resolver`; never a use-case room (`drawers`, `entities`, `review`, `schema`) or `indexes`.
"""
