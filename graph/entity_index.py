"""The indexed candidate search for entities (DESIGN §5.4): deletion-neighbourhood keys.

Every spelling of an entity (its key and each alias key) is stored with its depth-1 deletion
neighbourhood: the key and the key with any one code point removed. Two keys within one edit
always share one of those, so an indexed equality lookup of a mention's own neighbourhood finds
every one-edit candidate, whatever the number of entities; two-edit review candidates come from
probing deeper on the mention side (`resolver.entity_keys.review_probe_keys`). Candidates found
this way are a superset: the rules verify each with the real distance.

FalkorDB indexes the keys as an array property (`dkeys`, a range index answers `k IN e.dkeys`).
Neo4j cannot index list elements, so it keeps them as one whitespace-separated string
(`dkeys_text`) under a whitespace-analysed full-text index.
"""

from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache

from graph.queries import Dialect
from resolver.entity_keys import TWO_EDIT_PROBE_MIN_LEN, deletion_keys, review_probe_keys
from resolver.entity_model import EntityView
from resolver.entity_rules import REVIEW_MIN_KEY_LEN

CACHE_SIZE = 100_000
"""Keys whose neighbourhoods are remembered: a batch repeats names, and so do batches."""

FULLTEXT_LIMIT = 10_000
"""Most entities one Neo4j full-text probe returns (a probe set is a few hundred keys)."""


@lru_cache(maxsize=CACHE_SIZE)
def spelling_keys(key: str) -> tuple[str, ...]:
    """Keys stored for one spelling; a key too short for any fuzzy rule stores only itself."""
    return tuple(deletion_keys(key)) if len(key) >= REVIEW_MIN_KEY_LEN else (key,)


def stored_keys(view: EntityView) -> list[str]:
    keys: set[str] = set()
    for spelling_key in (view.key, *view.alias_keys):
        keys.update(spelling_keys(spelling_key))
    return sorted(keys)


def index_props(view: EntityView, dialect: Dialect) -> dict[str, object]:
    keys = stored_keys(view)
    if dialect == "neo4j":
        return {"dkeys_text": " ".join(_token(key) for key in keys)}
    return {"dkeys": keys}


TWO_EDIT_PROBE_MAX_LEN = 40
"""Longer keys probe one edit only: a depth-2 neighbourhood grows with the square of the
length (18,000 keys at 200 characters), and two edits in a long name are a small change
that the one-edit probe's superset already finds in most cases."""


@lru_cache(maxsize=CACHE_SIZE)
def probe_keys(key: str, *, two_edits: bool) -> tuple[str, ...]:
    """What a mention looks up: equal and one-edit spellings, plus two-edit ones on request."""
    if two_edits and TWO_EDIT_PROBE_MIN_LEN <= len(key) <= TWO_EDIT_PROBE_MAX_LEN:
        return tuple(review_probe_keys(key))
    return spelling_keys(key)


def probe_params(probes: Iterable[str], dialect: Dialect) -> dict[str, object]:
    unique = sorted(set(probes))
    if dialect == "neo4j":
        query = " OR ".join(f'"{_token(key)}"' for key in unique)
        return {"probes_query": query, "limit": FULLTEXT_LIMIT}
    return {"probes": unique}


def _token(key: str) -> str:
    """One whitespace-free token per key: keys hold no `_` (it is a separator), so it stands in
    for the space; quotes and backslashes never survive the key either."""
    return key.replace(" ", "_")


class BatchIndex:
    """The same lookup in memory, over the entities a batch has fetched or created so far."""

    def __init__(self) -> None:
        self._views: dict[str, EntityView] = {}
        self._ids_by_key: defaultdict[str, set[str]] = defaultdict(set)

    def put(self, view: EntityView) -> None:
        self._views[view.id] = view
        for key in stored_keys(view):
            self._ids_by_key[key].add(view.id)

    def get(self, entity_id: str) -> EntityView:
        return self._views[entity_id]

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self._views

    def candidates(self, probes: Iterable[str]) -> list[EntityView]:
        ids: set[str] = set()
        for probe in probes:
            ids |= self._ids_by_key.get(probe, set())
        return [self._views[entity_id] for entity_id in sorted(ids)]
