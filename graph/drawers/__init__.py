"""The drawer use cases: write, supersede, read, list and delete drawers (`palace`), many
writes at once (`drawer_batch`; its items in `batch_items`, its reads in `batch_reads`),
retiring mined chunks (`mined`) and who may see a drawer (`visibility`). Both write paths share
what a write asks (`drawer_request`), its candidates (`candidates`), the duplicate decision
(`likeness`), what a drawer is stored with (`drawer_props`, also backfilled by migrations;
`graph.records` maps the record itself) and, for one write, its create statement (`creation`).
This room may import `backends`, `indexes`, the shared `graph` modules and `resolver`.
"""
