// FalkorDB plans a MATCH over a relationship type it does not know yet as matching nothing, and
// reads no property of a relationship of that type the same statement created: the statements
// that create the drawer sequence's relationship (`create_drawer`) read it again at their end.
// So the schema makes the type known, with a relationship made and deleted at once.
CREATE (m:Meta {name: 'relationship_types'})-[:SEQUENCE]->(m)
WITH m
DETACH DELETE m
