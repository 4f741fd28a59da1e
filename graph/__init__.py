"""The only door to a graph database: connection, schema, migrations, one function per use case.

`api` calls the use-case functions with a `GraphStore`; each function fetches candidates, asks
`resolver` for the decision and writes it, with every value passed as a Cypher parameter.
"""
