CREATE VECTOR INDEX FOR (d:Drawer) ON (d.embedding)
OPTIONS {dimension: $dimension, similarityFunction: 'cosine', efRuntime: 40}
