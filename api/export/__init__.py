"""Writers of an exported subgraph: GraphML, and a Cypher script for another database."""
