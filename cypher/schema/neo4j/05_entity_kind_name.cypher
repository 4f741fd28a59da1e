CREATE CONSTRAINT entity_kind_name IF NOT EXISTS FOR (e:Entity) REQUIRE (e.kind, e.name) IS UNIQUE
