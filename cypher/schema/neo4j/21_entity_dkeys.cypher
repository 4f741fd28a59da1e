// Eventually consistent, as `13_drawer_terms.cypher` says why: `entities_by_probe_keys` waits
// for the updates committed before it, so a probe still sees every entity committed before it.
CREATE FULLTEXT INDEX entity_dkeys IF NOT EXISTS FOR (e:Entity) ON EACH [e.dkeys_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: true}}
