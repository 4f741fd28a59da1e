CREATE CONSTRAINT vector_group_hash IF NOT EXISTS FOR (g:VectorGroup) REQUIRE g.hash IS UNIQUE
