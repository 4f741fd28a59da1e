// The candidate index every instance serves from memory (`graph.neo4j_memory_indexes_only`).
DROP INDEX drawer_terms IF EXISTS
