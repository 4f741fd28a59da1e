// castlegraph: ready queries for Neo4j Browser.
// Set a parameter first, e.g.   :param name => 'Ada Lovelace'

// Everything an entity is mentioned in (by name or alias)
MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity)
WHERE e.name = $name OR $name IN e.aliases
RETURN d, m, e;

// How each mention of an entity was resolved (rule, confidence, provenance)
MATCH (d:Drawer)-[m:MENTIONS]->(e:Entity)
WHERE e.name = $name
RETURN d.id AS drawer, m.name AS seen_as, m.rule AS rule, m.confidence AS confidence,
       m.extractor AS extractor, m.origin_document AS document, m.created_at AS at
ORDER BY at DESC;

// Aliases of an entity
MATCH (e:Entity)
WHERE e.name = $name
RETURN e.name AS name, e.kind AS kind, e.aliases AS aliases;

// Open review links: entities that may be the same, waiting for a person
MATCH (newer:Entity)-[l:POSSIBLY_SAME_AS]->(older:Entity)
WHERE coalesce(l.status, 'pending') = 'pending'
RETURN newer, l, older
LIMIT 100;

// Near-duplicate drawers in a room   (:param wing => 'infra'  :param room => 'ops')
MATCH (newer:Drawer)-[s:SIMILAR_TO]->(older:Drawer)
WHERE newer.wing = $wing AND newer.room = $room
RETURN newer, s, older
LIMIT 200;

// Pending duplicate pairs between two vectors alike (no verdict yet), best first
MATCH (g:VectorGroup)-[p:NEAR_VECTOR]->(h:VectorGroup)
MATCH (a:Drawer {vector_hash: g.hash})
MATCH (b:Drawer {vector_hash: h.hash})
WHERE a.valid_to IS NULL AND b.valid_to IS NULL AND NOT (a)-[:DEDUP_CHECKED]-(b)
RETURN a, p.score AS score, b
ORDER BY score DESC
LIMIT 100;

// The palace: wings, rooms and how many current drawers each room holds
MATCH (w:Wing)-[:HAS_ROOM]->(r:Room)
OPTIONAL MATCH (r)-[:HAS_DRAWER]->(d:Drawer)
WHERE d.valid_to IS NULL
RETURN w.name AS wing, r.name AS room, count(d) AS drawers
ORDER BY wing, room;
