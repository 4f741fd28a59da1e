CREATE FULLTEXT INDEX drawer_terms IF NOT EXISTS FOR (d:Drawer) ON EACH [d.terms_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}}
