"""Meaning-level duplicates and their review: the duplicate pairs of a scope and the verdicts
on them (`duplicates`), the pending pairs kept up to date as vectors arrive
(`duplicate_pairs`) and the drawer embeddings that feed both (`embeddings`). This room may
import `backends`, `drawers`, the shared `graph` modules and `resolver`.
"""
