// The server's version and edition: castlegraph refuses a Neo4j its statements do not run on.
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
