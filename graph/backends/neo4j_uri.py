"""A Neo4j URI checked before the driver sees it, and the words for a connection Neo4j refused.

The driver's own errors quote the URI whole (a password in its user info too), and a web
scheme would start its preview Query API client rather than fail, so the scheme, host and port
are checked here first, and every message names the URI as `shown_uri` spells it: scheme, host
and port only.
A setting that cannot work is `GraphMisconfigured`, naming what to check.
"""

import ssl
from typing import TypeVar
from urllib.parse import urlsplit

import neo4j.exceptions

from castlegraph.graph.errors import GraphError, GraphMisconfigured, GraphUnavailable

SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")
"""The driver's Bolt schemes: `+s` verifies the server's certificate, `+ssc` accepts a
self-signed one unverified."""
URI_SETTING = "CASTLEGRAPH_NEO4J_URI (graph.neo4j_uri)"
CREDENTIAL_SETTINGS = (
    "CASTLEGRAPH_NEO4J_USER and CASTLEGRAPH_NEO4J_PASSWORD (graph.neo4j_user, graph.neo4j_password)"
)
RATE_LIMITED = "Neo.ClientError.Security.AuthenticationRateLimit"

E = TypeVar("E", bound=BaseException)


def shown_uri(uri: str) -> str:
    """`bolt+s://user:secret@db:7687/x?y` -> `bolt+s://db:7687`: what messages may name."""
    parts = urlsplit(uri.strip())
    host = parts.hostname or ""
    host = f"[{host}]" if ":" in host else host
    port = f":{parts.port}" if parts.port is not None else ""
    return f"{parts.scheme}://{host}{port}"


def checked_uri(uri: str) -> str:
    """`shown_uri(uri)`, once the URI has a Bolt scheme, a host and a readable port; else
    `GraphMisconfigured` saying which."""
    try:
        parts = urlsplit(uri.strip())
        parts.port  # noqa: B018  # raises ValueError for a port that is no number or too large
    except ValueError as error:
        raise GraphMisconfigured(
            f"the Neo4j URI is malformed ({error}): check {URI_SETTING}"
        ) from None
    schemes = ", ".join(f"{scheme}://" for scheme in SCHEMES)
    if not parts.scheme:
        raise GraphMisconfigured(f"the Neo4j URI has no scheme ({schemes}): check {URI_SETTING}")
    if parts.scheme.lower() not in SCHEMES:
        raise GraphMisconfigured(
            f"the Neo4j URI scheme {parts.scheme}:// is not one castlegraph connects with "
            f"({schemes}): check {URI_SETTING}",
            {"scheme": parts.scheme, "supported": list(SCHEMES)},
        )
    if not parts.hostname:
        raise GraphMisconfigured(f"the Neo4j URI names no host: check {URI_SETTING}")
    return shown_uri(uri)


def refused_driver(shown: str) -> GraphMisconfigured:
    """The driver would not be built from the URI (user info or a query on a `bolt://` URI,
    say): its own text quotes the URI whole, so it stays the cause, for the log."""
    return GraphMisconfigured(
        f"the Neo4j driver cannot use the URI {shown} as given (user info, a query on a "
        f"bolt:// URI, or another part it refuses): check {URI_SETTING}"
    )


def refused_connection(error: Exception, shown: str, user: str) -> GraphError | None:
    """What a refused login or a failed TLS or Bolt handshake means, in castlegraph's words;
    None for any other error."""
    if isinstance(error, neo4j.exceptions.AuthError):
        return GraphMisconfigured(
            f"Neo4j refused the credentials for user {user} at {shown}: check "
            f"{CREDENTIAL_SETTINGS}",
            {"uri": shown, "user": user},
        )
    if getattr(error, "code", None) == RATE_LIMITED:
        return GraphMisconfigured(
            f"Neo4j refuses user {user} at {shown} for a while after too many failed logins: "
            f"check {CREDENTIAL_SETTINGS}, then wait",
            {"uri": shown, "user": user},
        )
    if isinstance(error, neo4j.exceptions.ServiceUnavailable):
        return _handshake_failure(error, shown)
    return None


def _handshake_failure(error: Exception, shown: str) -> GraphError | None:
    """A certificate not trusted or TLS failing is a setting to correct; a plain connection
    closed during the Bolt handshake is most often a server that takes TLS only, but a server
    going down does the same, so that one stays `GraphUnavailable` (retried, and shown to
    clients), with the hint."""
    untrusted = _cause(error, ssl.SSLCertVerificationError)
    if untrusted is not None:
        return GraphMisconfigured(
            f"Neo4j at {shown} presented a TLS certificate this machine does not trust "
            f"({untrusted.verify_message}): add its CA to the trusted ones (SSL_CERT_FILE), "
            f"or accept a self-signed one with bolt+ssc:// or neo4j+ssc://; check {URI_SETTING}",
            {"uri": shown},
        )
    if _cause(error, ssl.SSLError) is not None:
        return GraphMisconfigured(
            f"the TLS handshake with Neo4j at {shown} failed: does the server take TLS on its "
            f"Bolt port? Use bolt:// or neo4j:// for a server without TLS; check {URI_SETTING}",
            {"uri": shown},
        )
    plain = not urlsplit(shown).scheme.endswith(("+s", "+ssc"))
    if plain and any("handshake" in str(e) for e in _chain(error)):
        return GraphUnavailable(  # a client reads it: no address (the cause, logged, has it)
            "Neo4j closed the connection during the Bolt handshake: if the server takes TLS "
            "only, use bolt+s:// or neo4j+s:// (+ssc for a self-signed certificate) in "
            f"{URI_SETTING}; else retry later"
        )
    return None


def _cause(error: BaseException, kind: type[E]) -> E | None:
    """The first exception of `kind` among `error`'s causes (`_chain`)."""
    return next((e for e in _chain(error) if isinstance(e, kind)), None)


def _chain(error: BaseException) -> list[BaseException]:
    """`error`, its causes and contexts, and the members of the exception groups among them
    (a `neo4j://` driver gathers each router's failure in one)."""
    found: list[BaseException] = []
    todo = [error]
    while todo:
        current = todo.pop(0)
        if any(current is seen for seen in found):
            continue
        found.append(current)
        todo += [e for e in (current.__cause__, current.__context__) if e is not None]
        if isinstance(current, BaseExceptionGroup):
            todo += list(current.exceptions)
    return found
