"""The only door to a graph database, in rooms by subject.

`backends` (the store protocol and its drivers), `indexes` (in-memory candidate indexes), and
the use cases: `drawers`, `entities`, `review`, `schema` and `jobs`; the modules at this level
are shared by all rooms. `api` calls a use-case function with a `GraphStore`; it fetches
candidates, asks `resolver` for the decision and writes it, every value a Cypher parameter.
"""
