"""A Neo4j URI the driver cannot use is refused when the store is built, in castlegraph's words.

Before, `http://` started the driver's preview HTTP client (and failed on a missing module), a
bad port failed only at the first connection with a bare `ValueError`, and the driver's own
errors quoted the URI whole, a password in its user info too. No server is needed: the driver
connects at first use.
"""

import pytest

from castlegraph.graph.backends.neo4j_store import Neo4jStore
from castlegraph.resolver.errors import CastlegraphError

SETTING = "check CASTLEGRAPH_NEO4J_URI (graph.neo4j_uri)"
SCHEMES = "bolt://, bolt+s://, bolt+ssc://, neo4j://, neo4j+s://, neo4j+ssc://"


def refusal(uri: str) -> CastlegraphError:
    with pytest.raises(CastlegraphError) as caught:
        Neo4jStore(uri, "neo4j", "the-password", "neo4j").close()
    assert caught.value.code == "graph::misconfigured"
    assert not caught.value.is_retryable()
    return caught.value


@pytest.mark.parametrize(
    ("uri", "scheme"),
    [("http://127.0.0.1:7474", "http://"), ("bolt+tls://db:7687", "bolt+tls://")],
)
def test_a_scheme_the_driver_has_no_bolt_for_is_refused_naming_the_ones_it_has(
    uri: str, scheme: str
) -> None:
    assert refusal(uri).message == (
        f"the Neo4j URI scheme {scheme} is not one castlegraph connects with ({SCHEMES}): {SETTING}"
    )


def test_a_uri_without_a_scheme_is_refused_saying_so() -> None:
    assert refusal("//db.internal:7687").message == (
        f"the Neo4j URI has no scheme ({SCHEMES}): {SETTING}"
    )


@pytest.mark.parametrize(
    ("uri", "reason"),
    [
        ("bolt://[::1:7687", "Invalid IPv6 URL"),
        ("neo4j://db:port", "Port could not be cast to integer value as 'port'"),
        ("bolt://db:99999", "Port out of range 0-65535"),
    ],
)
def test_a_malformed_uri_is_refused_with_the_reason(uri: str, reason: str) -> None:
    assert refusal(uri).message == f"the Neo4j URI is malformed ({reason}): {SETTING}"


def test_a_uri_without_a_host_is_refused() -> None:
    assert refusal("bolt://:7687").message == f"the Neo4j URI names no host: {SETTING}"


def test_a_uri_the_driver_refuses_is_named_without_its_password() -> None:
    error = refusal("bolt://neo4j:pw-in-uri@127.0.0.1:7687")
    assert error.message.startswith("the Neo4j driver cannot use the URI bolt://127.0.0.1:7687 ")
    assert "pw-in-uri" not in error.message


def test_a_well_formed_uri_builds_a_store_without_connecting() -> None:
    Neo4jStore("neo4j+ssc://db.invalid:7687", "neo4j", "the-password", "neo4j").close()
