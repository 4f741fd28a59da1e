"""Helpers the test folders share, imported as `tests.support.<module>`.

One copy of each: the in-process app (`app`), real processes (`processes`), the CLI run
in-process (`cli_runner`), graph data written straight through the graph layer (`seeding`),
the graph the export tests export (`export_graph`), the entity routes as an extractor calls
them (`entity_http`) and MCP sessions and expectations (`mcp`).
"""
