"""The entity use cases: resolving mentions in batches (`resolution`), fetching their stored
candidates (`entity_candidates`), reading and curating entities (`entity_curation`), listing
review links by status (`review_links`) and loading
entities from elsewhere (`bulk`). This room may import `backends`, `indexes`, the shared
`graph` modules and `resolver`.
"""
