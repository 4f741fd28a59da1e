"""The keys of the indexed candidate search for entities (design §5.4): deletion neighbourhoods.

Every spelling of an entity (its key and each alias key) is stored with its depth-1 deletion
neighbourhood: the key and the key with any one code point removed. Two keys within one edit
always share one of those, so an indexed equality lookup of a mention's own neighbourhood finds
every one-edit candidate, whatever the number of entities; two-edit review candidates come from
probing deeper on the mention side (`resolver.entity_keys.review_probe_keys`). Candidates found
this way are a superset: the rules verify each with the real distance.

Two-edit probes are only sent where they can matter. A depth-2 probe key (two code points
deleted from the mention key `a`) meets the stored depth-1 keys of `b` only when `b` is shorter
than `a` (the depth-1 probes already find every other pair they can), so such a pair's longer
key is `a`; a two-edit review link needs `1 - 2/L ≥ 0.75`, hence `a` of ≥ 8 code points. Shorter
mention keys probe one edit only: what depth 2 would add could never qualify for anything.

FalkorDB indexes the keys as an array property (`dkeys`, a range index answers `k IN e.dkeys`).
Neo4j cannot index list elements, so it keeps them as one whitespace-separated string
(`dkeys_text`) under a whitespace-analysed full-text index. FalkorDB receives the probe keys as
one string joined by a control character that no probe contains, split back in the statement:
its client writes every parameter into a Cypher text header in Python, and tens of thousands
of small quoted strings cost far more to render there than one long one.

A spelling long enough for a two-edit link (see below) also stores its accent-folded form
(`resolver.entity_keys.folded_key`), and the two-edit probe of a mention includes its own: a
name with its accents dropped in two places differs by two substitutions, which deletion keys
alone never meet.

`BatchIndex` answers the same lookups in memory for one batch. A stored entity is indexed only
under the probe keys that found it (FalkorDB returns them with each entity), at a fraction of
the cost of indexing every stored key of every entity fetched: a lookup is complete for the
probe keys sent, and the depth check of `graph.entity_candidates` keeps any decision from
resting on others. What the batch itself creates or respells is not in the database yet, so it
is indexed under all its keys.
"""

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator

from graph.bounded_cache import MIB, byte_lru
from graph.queries import Dialect
from resolver.entity_keys import deletion_keys, folded_key
from resolver.entity_model import EntityView
from resolver.entity_rules import REVIEW_MIN_KEY_LEN, REVIEW_TWO_EDIT_MIN_SIMILARITY

CACHE_BYTES = 32 * MIB
"""Neighbourhoods remembered: a batch repeats names, and so do batches. Bounded by bytes, as
an entry grows with the square of its key (about 1 KB at 12 characters, 55 KB at 200: 32,768
entries of 200-character keys held 1.8 GB)."""
REVIEW_CACHE_BYTES = 16 * MIB
"""Two-edit neighbourhoods (hundreds of keys each, 95 KB at 40 characters) are remembered
mostly within one batch's fetch and decisions; 4,096 of them held 390 MB."""

FULLTEXT_LIMIT = 10_000
"""Most entities one Neo4j full-text probe returns (a probe set is a few hundred keys)."""

DEEP_PROBE_MIN_LEN = math.ceil(2 / (1 - REVIEW_TWO_EDIT_MIN_SIMILARITY) - 1e-9)
"""The shortest mention key whose two-edit probes can find a link: 8 at 0.75 (see above).
`resolver.entity_keys.TWO_EDIT_PROBE_MIN_LEN` (6) bounds the shorter key of such a pair."""


@byte_lru(CACHE_BYTES)
def spelling_keys(key: str) -> frozenset[str]:
    """Keys stored for one spelling; a key too short for any fuzzy rule stores only itself."""
    if len(key) < REVIEW_MIN_KEY_LEN:
        return frozenset((key,))
    return frozenset(deletion_keys(key)).union(_folded(key))


def stored_keys(view: EntityView) -> list[str]:
    """The index keys stored for an entity, sorted (the `dkeys` property)."""
    keys: set[str] = set()
    for spelling in (view.key, *view.alias_keys):
        keys.add(spelling)
        if len(spelling) >= REVIEW_MIN_KEY_LEN:  # not cached: a bulk load sees each key once
            keys.update(spelling[:i] + spelling[i + 1 :] for i in range(len(spelling)))
            keys.update(_folded(spelling))
    return sorted(keys)


def _folded(key: str) -> tuple[str, ...]:
    """The accent-folded index key of a spelling, if it has accents and can take a two-edit link."""
    if len(key) < DEEP_PROBE_MIN_LEN or key.isascii():
        return ()
    folded = folded_key(key)
    return (folded,) if folded != key else ()


def stored_key_set(view: EntityView) -> frozenset[str]:
    if not view.alias_keys:
        return spelling_keys(view.key)
    return frozenset().union(*map(spelling_keys, (view.key, *view.alias_keys)))


def index_props(view: EntityView, dialect: Dialect) -> dict[str, object]:
    keys = stored_keys(view)
    if dialect == "neo4j":
        return {"dkeys_text": " ".join(_token(key) for key in keys)}
    return {"dkeys": keys}


TWO_EDIT_PROBE_MAX_LEN = 40
"""Longer keys probe one edit only: a depth-2 neighbourhood grows with the square of the
length (18,000 keys at 200 characters), and two edits in a long name are a small change
that the one-edit probe's superset already finds in most cases."""


def probe_keys(key: str, *, two_edits: bool) -> frozenset[str]:
    """What a mention looks up: equal and one-edit spellings, plus two-edit ones on request."""
    if two_edits and DEEP_PROBE_MIN_LEN <= len(key) <= TWO_EDIT_PROBE_MAX_LEN:
        return _two_deletions(key)
    return spelling_keys(key)


@byte_lru(REVIEW_CACHE_BYTES)
def _two_deletions(key: str) -> frozenset[str]:
    """`resolver.entity_keys.deletion_neighbourhood(key, 2)` as a set, each pair deleted once,
    and the key's accent-folded form."""
    found = {key, *_folded(key)}
    for i in range(len(key)):
        shorter = key[:i] + key[i + 1 :]
        found.add(shorter)
        found.update(shorter[:j] + shorter[j + 1 :] for j in range(i, len(shorter)))
    return frozenset(found)


def probe_params(probes: Iterable[str], dialect: Dialect) -> dict[str, object]:
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


def stores(view: EntityView, key: str) -> bool:
    """Whether `key` is one of the entity's stored index keys, without listing them."""
    return any(_deletion_key_of(key, spelling) for spelling in (view.key, *view.alias_keys))


def _deletion_key_of(key: str, spelling: str) -> bool:
    """`key in spelling_keys(spelling)`: the spelling, it less one character or its folded form
    (if long enough)."""
    if key == spelling or key in _folded(spelling):
        return True
    if len(key) != len(spelling) - 1 or len(spelling) < REVIEW_MIN_KEY_LEN:
        return False
    i = next((i for i, (a, b) in enumerate(zip(key, spelling, strict=False)) if a != b), len(key))
    return key[i:] == spelling[i + 1 :]


class BatchIndex:
    """The same lookup in memory, over the entities a batch has fetched or created so far."""

    def __init__(self) -> None:
        self._views: dict[str, EntityView] = {}
        self._ids_by_key: defaultdict[str, set[str]] = defaultdict(set)
        self._local_ids_by_key: defaultdict[str, list[str]] = defaultdict(list)

    def add_found(self, view: EntityView, probes: Iterable[str]) -> bool:
        """A stored entity under the probe keys that found it; False if it was known already."""
        new = view.id not in self._views
        if new:
            self._views[view.id] = view
        for probe in probes:
            self._ids_by_key[probe].add(view.id)
        return new

    def put_local(self, view: EntityView, keys: Iterable[str]) -> None:
        """An entity the batch created, or respelled with a new alias key: (re)index it."""
        self._views[view.id] = view
        for key in keys:
            self._local_ids_by_key[key].append(view.id)

    def touched(self, key: str) -> bool:
        """Whether the batch created or respelled an entity stored under `key`."""
        return key in self._local_ids_by_key

    def get(self, entity_id: str) -> EntityView:
        return self._views[entity_id]

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self._views

    def candidates(self, probes: Iterable[str]) -> list[EntityView]:
        ids: set[str] = set()
        stored, local = self._ids_by_key, self._local_ids_by_key
        for probe in stored.keys() & probes:  # in C, over the (few) probes
            ids.update(stored[probe])
        for probe in local.keys() & probes:
            ids.update(local[probe])
        return [self._views[entity_id] for entity_id in sorted(ids)]
