// Eventually consistent: a commit hands its updates to the index and goes on, instead of
// refreshing Lucene's reader itself. `entities_by_probe_keys` first waits for the updates
// committed before it, so a probe still sees every entity committed before it; no unit reads
// this index after writing entities itself (an eventually consistent index does not see the
// transaction's own writes).
CREATE FULLTEXT INDEX entity_dkeys IF NOT EXISTS FOR (e:Entity) ON EACH [e.dkeys_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: true}}
