MATCH (d:Drawer {id: $id})-[s:SIMILAR_TO]-(other:Drawer)
WHERE $viewer IS NULL OR coalesce(other.kind, '') <> 'diary' OR other.agent = $viewer
RETURN other.id AS drawer, startNode(s) = d AS written_later, s.kind AS kind,
       s.similarity AS similarity, s.same_hash AS same_hash,
       s.same_fingerprint AS same_fingerprint, s.threshold AS threshold,
       s.created_at AS created_at
