MATCH (m:Meta {name: 'embeddings'})
RETURN m.dimension AS dimension
