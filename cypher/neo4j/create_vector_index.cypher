CREATE VECTOR INDEX drawer_embedding IF NOT EXISTS
FOR (d:Drawer) ON (d.embedding)
OPTIONS {indexConfig: {
  `vector.dimensions`: $dimension,
  `vector.similarity_function`: 'cosine',
  `vector.quantization.enabled`: false
}}
