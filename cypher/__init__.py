"""Cypher statements as package data: one statement per `.cypher` file, loaded by name.

`*.cypher` here are shared by both backends; `neo4j/` and `falkordb/` hold a dialect's own
version where the two differ; `schema/<dialect>/` the constraints and indexes; `browser/` a
Neo4j Browser style sheet and ready queries.
"""
