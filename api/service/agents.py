"""Who a call acts for: the agent its bearer token names, and what that agent may name.

Every door asks here: the HTTP routes and the MCP tools read the agent the `BearerAuth`
middleware left on the request's state, and a write naming an agent is checked once.
"""

from castlegraph.api.errors import Forbidden


def caller_agent(state: object) -> str | None:
    """The agent named by the caller's token, if any (`request.state`)."""
    return getattr(state, "agent", None)


def named_agent(named: str | None, caller: str | None) -> str | None:
    """The agent a write names (a drawer's, a diary entry's, a checkpoint item's `agent`),
    once allowed: a token that names an agent acts only as that agent, so naming another is
    `403 auth::forbidden`; an operator's token (`caller` None) may name anyone (design §8.1)."""
    if caller is not None and named not in (None, caller):
        raise Forbidden("this token may only name its own agent", {"agent": named})
    return named
