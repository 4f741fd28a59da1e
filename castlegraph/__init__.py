"""castlegraph: entity resolution and memory deduplication for knowledge graphs.

The repository keeps its rooms at the top (`api/`, `graph/`, `resolver/`, `cypher/`); this
package gathers them under one installed name, `castlegraph.api`, `castlegraph.graph`, … (each
entry here is a link to that folder, and a built wheel holds the files themselves).
"""
