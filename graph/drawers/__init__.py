"""The drawer use cases: write, supersede, read, list and delete drawers (`palace`), many
writes at once (`drawer_batch`), retiring mined chunks (`mined`) and who may see a drawer
(`visibility`). `palace` also derives what a drawer write stores beside its record
(`drawer_write_props`, `drawer_index_props`; `graph.records` maps the record itself). This
room may import `backends`, `indexes`, the shared `graph` modules and `resolver`.
"""
