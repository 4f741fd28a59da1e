"""Meaning-level duplicates and their review: the duplicate pairs of a scope and the verdicts
on them (`duplicates`), the pending pairs kept up to date as vectors arrive
(`duplicate_pairs`) between the groups of drawers that share one vector (`vector_groups`),
and the drawer embeddings that feed them (`embeddings`). This room may
import `backends`, `drawers`, the shared `graph` modules and `resolver`.
"""
