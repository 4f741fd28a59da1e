"""The request and answer models of every operation, shared by the doors.

The HTTP routes declare them as bodies and responses, the MCP tools as their arguments and
structured results, the in-process client validates a body with them: one definition of each
operation's shape and checks. Pydantic only: nothing here knows of a transport.
"""
