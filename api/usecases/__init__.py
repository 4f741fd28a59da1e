"""The use cases every door calls: one class per subject, built once over the service's runtime.

A door (the HTTP routes, the MCP tools through the in-process client, the CLI) turns its own
input into a request model, calls one method here with the caller's agent, and turns the answer
model into its own output. The checks, limits and settings of an operation live here once, so
adding one touches this package, `api.models` and each door's one line.

May import `api.models`, `api.service`, `api.errors`, `graph` and `resolver`; never a door
(`api.http`, `api.mcp`, `api.client`, `api.cli`) nor a transport (fastapi, starlette, mcp, typer).
"""
