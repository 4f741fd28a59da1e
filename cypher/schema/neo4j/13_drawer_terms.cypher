// Eventually consistent: a commit hands its updates to the index and goes on, instead of
// refreshing Lucene's reader itself (most of a single write's commit). The statements that
// search it first wait for what was committed before them
// (`db.index.fulltext.awaitEventuallyConsistentIndexRefresh`), so a search still sees every
// drawer committed before it; the writes that the in-memory index serves never wait.
CREATE FULLTEXT INDEX drawer_terms IF NOT EXISTS FOR (d:Drawer) ON EACH [d.terms_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: true}}
