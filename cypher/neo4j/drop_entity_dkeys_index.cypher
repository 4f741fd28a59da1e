// The candidate index every instance serves from memory (`graph.neo4j_memory_indexes_only`).
DROP INDEX entity_dkeys IF EXISTS
