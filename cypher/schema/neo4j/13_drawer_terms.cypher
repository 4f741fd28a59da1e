// Eventually consistent, as `entity_dkeys` (`21_entity_dkeys.cypher`): a commit hands its
// updates to the index and goes on, instead of refreshing Lucene's reader itself (most of a
// drawer write's commit). `drawer_candidates` and `drawer_batch_candidates` first wait for the
// updates committed before them, so a write still sees every drawer committed before it; the
// index does not see the transaction's own writes, so a drawer batch compares its later items
// with its earlier ones in memory (`graph.drawers.drawer_batch`), never through this index.
CREATE FULLTEXT INDEX drawer_terms IF NOT EXISTS FOR (d:Drawer) ON EACH [d.terms_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: true}}
