CREATE FULLTEXT INDEX entity_dkeys IF NOT EXISTS FOR (e:Entity) ON EACH [e.dkeys_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
