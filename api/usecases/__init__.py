"""The use cases every door calls: one class per subject, built once over the service's runtime.

A door (HTTP routes, MCP tools, CLI) turns its input into a request model, calls one method here
with the caller's agent, and turns the answer model into its output: an operation's checks,
limits and settings live here once. May import `api.models`, `api.service`, `api.errors`,
`graph` and `resolver`; never a door (`api.http`, `api.mcp`, `api.client`, `api.cli`) nor a
transport (fastapi, starlette, mcp, typer).
"""
