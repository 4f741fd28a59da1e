"""How the CLI and the MCP tools reach castlegraph: one client protocol, in-process or over
HTTP."""
