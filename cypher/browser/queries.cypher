// castlegraph: ready queries for Neo4j Browser. Each starts from an index and stops at a LIMIT,
// so it answers at once on a palace of millions.
// Set a parameter first, e.g.   :param name => 'Ada Lovelace'

// Everything an entity is mentioned in, by its name (aliases: `castlegraph entity NAME`)
MATCH (e:Entity {name: $name})
MATCH (d:Drawer)-[m:MENTIONS]->(e)
RETURN d, m, e
LIMIT 100;

// How each mention of an entity was resolved (rule, confidence, provenance), newest first
MATCH (e:Entity {name: $name})
MATCH (d:Drawer)-[m:MENTIONS]->(e)
RETURN d.id AS drawer, m.name AS seen_as, m.rule AS rule, m.confidence AS confidence,
       m.extractor AS extractor, m.origin_document AS document, m.created_at AS at
ORDER BY at DESC
LIMIT 200;

// Aliases of an entity, in each kind that holds the name
MATCH (e:Entity {name: $name})
RETURN e.name AS name, e.kind AS kind, e.aliases AS aliases
LIMIT 25;

// Open review links: entities that may be the same, waiting for a person, best first
MATCH (newer:Entity)-[l:POSSIBLY_SAME_AS]->(older:Entity)
WHERE l.status = 'pending'
RETURN newer, l, older
ORDER BY l.similarity DESC
LIMIT 100;

// Near-duplicate drawers in a room   (:param wing => 'infra'  :param room => 'ops')
MATCH (newer:Drawer)-[s:SIMILAR_TO]->(older:Drawer)
WHERE newer.wing = $wing AND newer.room = $room
RETURN newer, s, older
LIMIT 200;

// Pending duplicate pairs between two vectors alike (no verdict yet), best first
MATCH (g:VectorGroup)-[p:NEAR_VECTOR]->(h:VectorGroup)
WHERE g.seq >= 0
MATCH (a:Drawer {vector_hash: g.hash})
MATCH (b:Drawer {vector_hash: h.hash})
WHERE a.valid_to IS NULL AND b.valid_to IS NULL AND NOT (a)-[:DEDUP_CHECKED]-(b)
RETURN a, p.score AS score, b
ORDER BY score DESC
LIMIT 100;

// The palace: wings, rooms and how many drawers each room has held (superseded ones too)
MATCH (w:Wing)-[:HAS_ROOM]->(r:Room)
WHERE w.name IS NOT NULL
RETURN w.name AS wing, r.name AS room, COUNT { (r)-[:HAS_DRAWER]->() } AS drawers
ORDER BY wing, room
LIMIT 500;
