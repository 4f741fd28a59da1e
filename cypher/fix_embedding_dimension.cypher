MERGE (m:Meta {name: 'embeddings'})
ON CREATE SET m.dimension = $dimension
RETURN m.dimension AS dimension
