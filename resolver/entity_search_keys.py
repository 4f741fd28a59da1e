"""The keys of the indexed candidate search for entities (design §5.4): deletion neighbourhoods.

Every spelling of an entity is stored with its depth-1 deletion neighbourhood (the key and the
key with any one code point removed); two keys within one edit always share one of those, so an
indexed equality lookup of a mention's own neighbourhood finds every one-edit candidate,
whatever the number of entities. Candidates found this way are a superset: the rules verify
each with the real distance. Two-edit review candidates come from probing deeper.
"""

from collections.abc import Callable, Collection, Iterable, Mapping

from castlegraph.resolver import core
from castlegraph.resolver.bounded_cache import MIB, byte_lru
from castlegraph.resolver.entity_keys import folded_key
from castlegraph.resolver.entity_model import EntityView
from castlegraph.resolver.entity_probes import DEEP_PROBE_MIN_LEN
from castlegraph.resolver.entity_rules import TYPO_MIN_KEY_LEN, compatible_kinds
from castlegraph.resolver.entity_segments import MAX_EDITS, is_dense

CACHE_BYTES = 8 * MIB
"""Neighbourhoods remembered: a batch repeats names, and so do batches. Bounded by bytes, as
an entry grows with the square of its key (about 1 KB at 12 characters, 55 KB at 200: 32,768
entries of 200-character keys held 1.8 GB). With the index in memory (design §5.4) only the
spellings a batch creates or respells are derived here, once for the batch and once for the
index: 8 MB hold thousands; 32 MB filled with spellings never asked for again at 1 M."""
REVIEW_CACHE_BYTES = 16 * MIB
"""Two-edit neighbourhoods (hundreds of keys each, 95 KB at 40 characters) are remembered
mostly within one batch's fetch and decisions; 4,096 of them held 390 MB."""


@byte_lru(CACHE_BYTES)
def spelling_keys(key: str) -> frozenset[str]:
    """Keys stored for one spelling (`index_keys`), remembered."""
    return index_keys(key)


def index_keys(key: str) -> frozenset[str]:
    """Keys stored for one spelling; a key too short for any fuzzy rule stores only itself.

    Its deletion keys (one-edit candidates), its partition keys or, for a dense key with digits,
    its depth-2 deletion keys (two-edit candidates where it is the longer key,
    `resolver.entity_segments`), the deletion keys of its sorted words if they
    are not in order already (`word_order` candidates) and its accent-folded form.

    Where the stored key is the longer one (or as long, with two substitutions), depth-2 deletion
    probes cannot meet it: each spelling of ≥ 8 code points also stores 15 partition keys
    (`resolver.entity_segments`) that the review probe meets whichever key came first; one with
    digits of up to 16 stores its depth-2 deletion keys instead, as partitions of a dense family
    (`RFC 8975`) meet all of it. A spelling whose words are out of order stores the deletion keys of
    its sorted words, and the review probe sends those of the mention's, for the `word_order` links.
    The cutting is the core's (`resolver.entity_probes`); the folding stays here.
    """
    keys = core.stored_keys(key, is_dense(key))
    folded = _folded(key)
    return keys.union(folded) if folded else keys


def stored_keys(view: EntityView, *, cached: bool = False) -> list[str]:
    """The index keys stored for an entity, sorted (the `dkeys` property). Not cached by
    default: a bulk load or a migration sees each key once; resolution derived them a moment
    before (`BatchIndex.put_local`), and deriving them again was a tenth of a batch's CPU."""
    return sorted(
        stored_key_set(view)
        if cached
        else spellings_keys((view.key, *view.alias_keys), cached=False)
    )


def spellings_keys(spellings: Iterable[str], *, cached: bool = True) -> set[str]:
    """The index keys stored for an entity with these spelling keys (its key and alias keys);
    `cached=False` where each key is seen once (a bulk load, a build of a whole index)."""
    derive: Callable[[str], Collection[str]] = spelling_keys if cached else index_keys
    keys: set[str] = set()
    for spelling in spellings:
        keys.update(derive(spelling))
    return keys


def _folded(key: str) -> tuple[str, ...]:
    """The accent-folded index key of a spelling, if it has accents and can take a two-edit link.

    A spelling long enough for a two-edit link (`DEEP_PROBE_MIN_LEN`) also stores its accent-folded
    form (`resolver.entity_keys.folded_key`), and the two-edit probe of a mention includes its own:
    a name with its accents dropped in two places differs by two substitutions, which deletion keys
    alone never meet.
    """
    if len(key) < DEEP_PROBE_MIN_LEN or key.isascii():
        return ()
    folded = folded_key(key)
    return (folded,) if folded != key else ()


def stored_key_set(view: EntityView) -> frozenset[str]:
    if not view.alias_keys:
        return spelling_keys(view.key)
    return frozenset().union(*map(spelling_keys, (view.key, *view.alias_keys)))


def probe_keys(key: str, *, two_edits: bool) -> frozenset[str]:
    """What a mention looks up: equal and one-edit spellings, plus review candidates on request."""
    if two_edits and len(key) >= TYPO_MIN_KEY_LEN:
        return _review_probes(key)
    return _one_edit_probes(key)


@byte_lru(CACHE_BYTES)
def _one_edit_probes(key: str) -> frozenset[str]:
    """The key, its deletion keys and its folded form: what meets a one-edit spelling's rows.
    Remembered: a mention key left open asks for them three times (its one-edit fetch and
    decision, then its review probes)."""
    keys = core.one_edit_keys(key)
    folded = _folded(key)
    return keys.union(folded) if folded else keys


@byte_lru(REVIEW_CACHE_BYTES)
def _review_probes(key: str) -> frozenset[str]:
    """Every review candidate, whichever key is longer (design §5.3, complete):

    - stored keys shorter than the mention: its depth-2 deletion neighbourhood (each pair
      deleted once) meets their depth-1 rows; past `TWO_EDIT_PROBE_MAX_LEN`, where that
      neighbourhood grows too large, the partition probes for shorter lengths do it instead;
    - stored keys as long or longer: the partition probes (`resolver.entity_segments`);
    - word order: the deletion keys of the sorted words;
    - the accent-folded form (kept for entities indexed before partition keys existed).

    The cutting is the core's (`resolver.entity_probes`); the folding stays here.
    """
    keys = core.review_keys(key)
    folded = _folded(key)
    return keys.union(folded) if folded else keys


def stores(view: EntityView, key: str) -> bool:
    """Whether `key` is one of the entity's stored index keys."""
    return any(key in spelling_keys(spelling) for spelling in (view.key, *view.alias_keys))


def has_edge_space_keys(view: EntityView) -> bool:
    """Whether a stored key of the entity may start or end with whitespace.

    Only such a key can be found through another (FalkorDB's string index trims what it
    stores), so only then must a probe that found the entity be checked against its keys —
    deriving every key of every entity fetched was most of the cost of a large fetch (at 100 k
    entities they no longer fit in `spelling_keys`'s cache). Deleting up to two code points
    bares a space only next to a word of one or two; a raw key of punctuation may hold other
    whitespace; partition keys start with their tag and end where the key ends.
    """
    for spelling in (view.key, *view.alias_keys):
        for word in spelling.split(" "):
            if len(word) <= MAX_EDITS or any(ch.isspace() for ch in word):
                return True
    return False


IdsUnder = str | dict[str, set[str]]
"""The entities a `BatchIndex` keeps under one key: the id of the one entity there, or, once
there are more, their ids by kind (a key one name shares under a thousand kinds is read one kind
at a time)."""


class BatchIndex:
    """The same lookup in memory, over the entities a batch has fetched or created so far.

    Keyed by key, then kind: a mention of a specific kind reads only the entities of its kind
    under its probes (`candidates`), so a batch that posts one name under a thousand kinds
    does not compare each mention with the entities of every other kind (design §8.1); a
    mention of kind `other` reads all of them, as it is compared with every kind.

    A stored entity is indexed only under the probe keys that found it (FalkorDB returns them with
    each entity), at a fraction of the cost of indexing every stored key of every entity fetched: a
    lookup is complete for the probe keys sent, and the depth check of
    `graph.entities.entity_candidates` keeps any decision from resting on others. What the batch
    itself creates or respells is not in the database yet, so it is indexed under all its keys.
    """

    def __init__(self) -> None:
        self._views: dict[str, EntityView] = {}
        self._ids_by_key: dict[str, IdsUnder] = {}
        self._local_ids_by_key: dict[str, IdsUnder] = {}
        """Each key's entities (`IdsUnder`): a batch's new entities store ~25,000 keys, nearly
        all of one entity each, and a dict and a list per key were two containers each for the
        cyclic collector to walk (a young collection of ~25 ms a batch)."""

    def add_found(self, view: EntityView, probes: Iterable[str]) -> bool:
        """A stored entity under the probe keys that found it; False if it was known already."""
        entity_id, kind = view.id, view.kind
        new = entity_id not in self._views
        if new:
            self._views[entity_id] = view
        table = self._ids_by_key
        for probe in probes:
            found = table.setdefault(probe, entity_id)
            if found is not entity_id and found != entity_id:
                self._by_kind(table, probe, found).setdefault(kind, set()).add(entity_id)
        return new

    def put_local(self, view: EntityView, keys: Iterable[str]) -> None:
        """An entity the batch created, or respelled with a new alias key: (re)index it."""
        entity_id, kind = view.id, view.kind
        self._views[entity_id] = view
        table = self._local_ids_by_key
        for key in keys:
            found = table.setdefault(key, entity_id)
            if found is not entity_id and found != entity_id:
                self._by_kind(table, key, found).setdefault(kind, set()).add(entity_id)

    def _by_kind(
        self, table: dict[str, IdsUnder], key: str, found: IdsUnder
    ) -> dict[str, set[str]]:
        """The entities by kind under `key` (`found`), made so where one entity was alone."""
        if isinstance(found, str):
            by_kind = table[key] = {self._views[found].kind: {found}}
            return by_kind
        return found

    def _local_by_kind(self, key: str) -> Mapping[str, Collection[str]] | None:
        """The batch's own entities stored under `key`, by kind."""
        found = self._local_ids_by_key.get(key)
        if isinstance(found, str):
            return {self._views[found].kind: (found,)}
        return found

    def touched(self, key: str, kind: str | None = None) -> bool:
        """Whether the batch created or respelled an entity stored under `key` that a mention
        of `kind` is compared with (None: of any kind)."""
        by_kind = self._local_by_kind(key)
        if not by_kind:
            return False
        compatible = compatible_kinds(None if kind is None else (kind,))
        return compatible is None or any(k in by_kind for k in compatible)

    def get(self, entity_id: str) -> EntityView:
        return self._views[entity_id]

    def kinds(self) -> set[str]:
        """The kinds of every entity found or put here."""
        return {view.kind for view in self._views.values()}

    def __contains__(self, entity_id: object) -> bool:
        return entity_id in self._views

    def candidates(self, probes: Iterable[str], kind: str | None = None) -> list[EntityView]:
        """The entities under `probes` that a mention of `kind` is compared with (None: of
        every kind), by id."""
        ids: set[str] = set()
        compatible = compatible_kinds(None if kind is None else (kind,))
        for table in (self._ids_by_key, self._local_ids_by_key):
            for probe in table.keys() & probes:  # in C, over the (few) probes
                found = table[probe]
                if not isinstance(found, str):
                    _add_compatible(ids, found, compatible)
                elif compatible is None or self._views[found].kind in compatible:
                    ids.add(found)
        return [self._views[entity_id] for entity_id in sorted(ids)]


def _add_compatible(
    ids: set[str],
    by_kind: Mapping[str, Collection[str]],
    compatible: Collection[str] | None,
) -> None:
    """Add to `ids` those of `by_kind` (kind → ids) of the `compatible` kinds (None: all)."""
    if compatible is None:
        for found in by_kind.values():
            ids.update(found)
        return
    for wanted in compatible:
        ids.update(by_kind.get(wanted, ()))
