"""The database backends: the `GraphStore` protocol and its two implementations.

`store` is the protocol every use case is written against; `falkordb_store` (with its parameter
header writer `falkordb_params`) and `neo4j_store` implement it and translate driver errors into
`graph.errors` once, here. `embedded` runs the FalkorDB child process that `child_watch` watches,
`opener` opens the configured backend, `queries` loads the Cypher text by name,
`entity_key_params` shapes entity keys as each dialect stores and probes them, and `observe`
times what the stores run. This room may import the shared `graph` modules, the drivers and
`resolver`; never a use-case room (`drawers`, `entities`, `review`, `schema`) or `indexes`.
"""
