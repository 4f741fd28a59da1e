"""The MCP door: castlegraph's tools for agents, served over stdio or at `/mcp`."""
