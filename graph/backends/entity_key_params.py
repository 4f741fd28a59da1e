"""The entity search keys as each dialect stores and probes them (design §5.4).

FalkorDB indexes the keys as an array property (`dkeys`, a range index answers `k IN e.dkeys`)
and stores them only while it keeps that index. Neo4j cannot index list elements, so it keeps
them as one whitespace-separated string (`dkeys_text`) under a whitespace-analysed full-text
index.
"""

from collections.abc import Iterable, Iterator

from castlegraph.graph.backends.queries import Dialect
from castlegraph.resolver.entity_model import EntityView
from castlegraph.resolver.entity_search_keys import stored_keys

FULLTEXT_LIMIT = 10_000
"""Most entities one Neo4j full-text probe returns (a probe set is a few hundred keys)."""


def index_props(
    view: EntityView, dialect: Dialect, *, cached: bool = False, stored: bool = True
) -> dict[str, object]:
    """The entity's keys as its dialect stores them; with `stored=False` (the database keeps
    no index of them, `GraphStore.stores_entity_keys`) the property set to null, which drops
    the keys of its former spellings."""
    name = "dkeys_text" if dialect == "neo4j" else "dkeys"
    if not stored:
        return {name: None}
    keys = stored_keys(view, cached=cached)
    if dialect == "neo4j":
        return {name: " ".join(_token(key) for key in keys)}
    return {name: keys}


def probe_params(probes: Iterable[str], dialect: Dialect) -> dict[str, object]:
    """The probe keys as the dialect's statement takes them. FalkorDB gets them as one string
    joined by a control character that no probe contains, split back in the statement: its
    client writes every parameter into a Cypher text header in Python, and tens of thousands of
    small quoted strings cost far more to render there than one long one."""
    if dialect == "neo4j":
        query = " OR ".join(_phrase(key) for key in sorted(set(probes)))
        return {"probes_query": query, "limit": FULLTEXT_LIMIT}
    unique = set(probes)  # any order: the rows are a set of entities
    for separator in _separators():
        joined = separator.join(unique)
        if joined.count(separator) == max(len(unique) - 1, 0):  # no probe contains it
            return {"probes": joined, "separator": separator}
    raise AssertionError("unreachable: some code point is in no probe key")  # pragma: no cover


def _separators() -> Iterator[str]:
    """Control characters first (keys drop them), then any other code point below surrogates."""
    yield from "\x1f\x1e\x1d\x1c"
    yield from map(chr, range(1, 0xD800))


def _token(key: str) -> str:
    """One whitespace-free token per key: keys hold no `_` (it is a separator), so it stands in
    for the space."""
    return key.replace(" ", "_")


def _phrase(key: str) -> str:
    """A key as one quoted Lucene phrase. A key of punctuation only is the name's raw text
    (`"`, `\\`), so quotes and backslashes are escaped: Lucene reads a phrase, never a key's
    characters as query syntax (one stray quote failed the whole batch)."""
    token = _token(key).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{token}"'
