"""The stored candidates of one write unit, fetched from the entity index depth by depth.

`resolver.entity_search_keys` says which keys each entity stores and which keys a mention probes
(free of I/O and records, so `graph.records` can use them without an import cycle); this module
sends those probes to the database, or to the in-memory index (`graph.indexes.entity_index`),
and turns the rows into records (design §5.4).
"""

from collections.abc import Collection, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet

from castlegraph.graph.backends.entity_key_params import probe_params
from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.store import Tx
from castlegraph.graph.indexes.entity_index import EntityIndex, SpelledHit
from castlegraph.graph.records import Entity
from castlegraph.resolver.entity_model import EntityView
from castlegraph.resolver.entity_pairs import may_pair
from castlegraph.resolver.entity_rules import (
    NEAR,
    FarLink,
    FarLookAlikes,
    NameGuard,
    compatible_kinds,
    far_link,
)
from castlegraph.resolver.entity_search_keys import (
    BatchIndex,
    has_edge_space_keys,
    probe_keys,
    stored_key_set,
    stores,
)

LUCENE_MAX_CLAUSES = 1_000
"""Probe keys per Neo4j full-text query: Lucene refuses more than 1,024 clauses by default."""


def fetch(
    tx: Tx, dialect: Dialect, probes: set[str], kinds: Collection[str] | None = None
) -> list[tuple[Entity, list[str]]]:
    """Entities with a stored key among `probes`, each with those of its keys that are probes;
    with `kinds`, only entities of those kinds (the database still reads the others' index
    entries, but returns none of them: a key many kinds share is not sent back whole).

    Entities a person settled as the same as an older one (`same_as`) are no candidates.
    FalkorDB's string index trims the values it stores (`' ab'` is indexed as `'ab'`), so a
    probe key that starts or ends with a space (a deletion next to a one-letter word) finds
    nothing by itself: its trimmed form is probed too, and every answer is checked against the
    entity's real keys, which also drops what the trimmed probes over-fetch. Only an entity with
    a key that may start or end with a space can be over-fetched that way; the others are taken
    at their word.
    """
    if not probes:
        return []
    stand_ins: dict[str, list[str]] = {}
    if dialect == "falkordb":
        for probe in probes:
            trimmed = probe.strip(" ")
            if trimmed != probe and trimmed:
                stand_ins.setdefault(trimmed, []).append(probe)
    found: dict[str, tuple[Entity, list[str]]] = {}
    for part in _query_parts(sorted(probes | stand_ins.keys()), dialect):
        params = probe_params(part, dialect)
        kinds_wanted = sorted(kinds) if kinds is not None else None
        for row in tx.run("entities_by_probe_keys", **params, kinds=kinds_wanted):
            entity = Entity.from_props(row["entity"])
            if entity.same_as is not None or entity.view.id in found:
                continue  # a later part finds the same entity by the same keys
            view, returned = entity.view, row.get("probes")
            if returned is None:  # Neo4j's full-text search does not say which token matched
                matched = [key for key in stored_key_set(view) if key in probes]
            elif not has_edge_space_keys(view):  # it stores what found it, and no stand-in
                matched = [key for key in returned if key in probes]
            else:
                matched = [key for key in returned if key in probes and stores(view, key)]
                matched += [
                    key for p in returned for key in stand_ins.get(p, ()) if stores(view, key)
                ]
            found[view.id] = (entity, matched)
    return list(found.values())


def fetch_remembered(
    tx: Tx, dialect: Dialect, memory: EntityIndex, probes: set[str]
) -> list[tuple[Entity, list[str]]]:
    """What `fetch` answers, with the probes looked up in `memory`: the entities found are
    taken from memory, or read by id where it does not keep them whole."""
    found = memory.lookup_rows(probes) if probes else {}
    hits = {entity_id: keys for entity_id, (keys, _) in found.items()}
    return read_found(tx, dialect, memory, hits, {i: row for i, (_, row) in found.items()})


def read_found(
    tx: Tx,
    dialect: Dialect,
    memory: EntityIndex,
    hits: dict[str, list[str]],
    rows: dict[str, int],
) -> list[tuple[Entity, list[str]]]:
    """The entities of `hits` (id → the probes that met it; `rows`: id → its latest row):
    those `memory` handed out lately, then those it keeps whole, the few others read by id.
    Entities settled as the same as another are dropped, as `fetch` drops them."""
    if not hits:
        return []
    entities, generation = memory.cached(hits)
    kept = memory.entities({i: rows[i] for i in hits.keys() - entities.keys()})
    entities.update(kept)
    unread = sorted(hits.keys() - entities.keys())
    read = [
        Entity.from_props(row)
        for row in (tx.run("entities_by_ids", **id_params(unread, dialect)) if unread else ())
    ]
    memory.remember([*kept.values(), *read], generation)
    entities.update((entity.view.id, entity) for entity in read)
    return [(e, hits[e.view.id]) for e in entities.values() if e.same_as is None]


def id_params(ids: list[str], dialect: Dialect) -> dict[str, object]:
    """Ids as a list for Neo4j; FalkorDB gets them as one joined string, like the probes."""
    if dialect == "neo4j":
        return {"ids": ids}
    joined = probe_params(ids, dialect)
    return {"ids": joined["probes"], "separator": joined["separator"]}


def _query_parts(probes: list[str], dialect: Dialect) -> Iterator[list[str]]:
    """FalkorDB takes every probe at once; a Lucene query holds at most 1,024 clauses."""
    size = LUCENE_MAX_CLAUSES if dialect == "neo4j" else max(len(probes), 1)
    for start in range(0, len(probes), size):
        yield probes[start : start + size]


EXACT, ONE_EDIT, TWO_EDITS = 0, 1, 2
"""Probe depths: the key, its one-edit neighbourhood, its review probes (`probe_keys`)."""


def depth_probes(key: str, depth: int) -> frozenset[str]:
    if depth == EXACT:
        return frozenset((key,))
    return probe_keys(key, two_edits=depth == TWO_EDITS)


class Candidates:
    """The stored candidates one write unit has fetched, and how deep per mention key.

    It fetches in depths (`EXACT`: the key itself; `ONE_EDIT`: its deletion neighbourhood;
    `TWO_EDITS`: the review probes), never sending a probe key twice, and remembers the depth
    reached per mention key, so a decision that needs a deeper search than was fetched can ask for
    it.

    With the in-memory index (caught up by the write unit before it asks), the probes are answered
    in memory and the entities found come from memory too, the few it does not keep whole read by id
    (`fetch_remembered`). A hit is taken only if some rule could use it for a mention key that
    probed it: a spelling that may pair with the key (`resolver.entity_pairs.may_pair`) and a kind
    some mention of the key is compared with (`resolver.entity_rules.kinds_compatible`, registered
    per key by `expect`); what is left unread would have decided nothing, so the decisions are the
    same. The spelling part is done inside the lookup, pair by pair (`EntityIndex.lookup_spelled`),
    so probes are tracked per mention key: a probe two keys share is looked up for each. The kind
    part starts inside the lookup too (`graph.indexes.kind_runs`), so a mention's cost does not grow
    with the entities of other kinds that share its key (design §8.1).

    Without the in-memory index, the database's answer is narrowed to the kinds the unit's mentions
    are compared with (all kinds as soon as one mention is `other`).

    With `names`, a key that a person mention is decided under also sends, with its review probes,
    the keys of its nickname pairs (`NameGuard.nickname_probes`, design §5.3): equal keys, met by
    every stored spelling's own key. In memory each such probe is weighed as a mention key of its
    own, wanting the person kinds only; keys of other kinds send none.

    With `far` (a write unit's decisions; not a dry run's, which explains every look-alike), the
    review read sets aside, unread, each entity that none of the mention keys that met it has a
    spelling within one edit of (`resolver.entity_rules.far_link`): it can only add a review
    link, whose terms its keys alone give. A new mention keeps five links of the hundreds of
    review candidates it may meet at a million entities, so only those are built
    (`far_look_alikes`); the decisions are the same.
    """

    def __init__(
        self,
        tx: Tx,
        dialect: Dialect,
        memory: EntityIndex | None = None,
        names: NameGuard | None = None,
        *,
        far: bool = False,
    ) -> None:
        self.index = BatchIndex()
        self._memory = memory
        self._names = names
        self._far = far
        self._far_links: dict[str, dict[str, FarLink]] = {}
        """Mention key → the entities its review read set aside, by id, with their links."""
        self._far_rows: dict[str, int] = {}
        """Each entity set aside → its latest row, to build it should a link to it be kept."""
        self.created_at: dict[str, str] = {}
        self._tx = tx
        self._dialect = dialect
        self._sent: set[str] = set()
        self._depth: dict[str, int] = {}
        self._kinds: dict[str, set[str]] = {}
        """The kinds of the batch's mentions per mention key (`expect`)."""

    def expect(self, key: str, kind: str) -> None:
        """A mention of `kind` will be decided under `key`: hits of a kind no mention of the
        key is compared with are not read. A key never expected takes hits of every kind."""
        self._kinds.setdefault(key, set()).add(kind)

    def depth(self, key: str) -> int:
        return self._depth.get(key, -1)

    def kinds(self) -> set[str]:
        """The kinds of every entity met: read, created, or set aside."""
        met = self.index.kinds()
        met.update(link.kind for links in self._far_links.values() for link in links.values())
        return met

    def far_look_alikes(self, key: str) -> tuple[list[EntityView], FarLookAlikes | None]:
        """What `key`'s review read set aside: the entities read whole since (they are weighed
        as read, respelled or not), and the links of the others."""
        links = self._far_links.get(key)
        if not links:
            return [], None
        read = [self.index.get(entity_id) for entity_id in links if entity_id in self.index]
        unread = {i: link for i, link in links.items() if i not in self.index}
        return read, FarLookAlikes(unread, self._far_views) if unread else None

    def _far_views(self, ids: Collection[str]) -> dict[str, EntityView]:
        """The entities of these far look-alikes, built from their rows."""
        memory = self._memory
        assert memory is not None  # only a lookup in memory sets entities aside
        rows = {entity_id: self._far_rows[entity_id] for entity_id in ids}
        hits: dict[str, list[str]] = {entity_id: [] for entity_id in ids}
        found = read_found(self._tx, self._dialect, memory, hits, rows)
        return {entity.view.id: entity.view for entity, _ in found}

    def _people(self, key: str) -> set[str]:
        """The kinds holding people among those of the mentions decided under `key`."""
        names = self._names
        if names is None or names.nicknames is None:
            return set()
        return {kind for kind in self._kinds.get(key, ()) if kind in names.kinds}

    def _nickname_probes(self, key: str, depth: int) -> dict[str, set[str]]:
        """The nickname probes `key` sends at `depth` (review depth only), each with the person
        kinds that want its hits."""
        people = self._people(key) if depth == TWO_EDITS else set()
        if not people or self._names is None:
            return {}
        probes = self._names.nickname_probes(key, next(iter(people)))
        return dict.fromkeys(probes, people)

    def ensure(self, keys: Iterable[str], depth: int) -> bool:
        """Fetch, in one read, whatever `keys` lack to be searched to `depth`; True if found any."""
        if self._memory is not None:
            return self._ensure_remembered(self._memory, keys, depth)
        wanted: set[str] = set()
        for key in keys:
            if self._depth.get(key, -1) < depth:
                self._depth[key] = depth
                wanted |= depth_probes(key, depth)
                wanted.update(self._nickname_probes(key, depth))
        wanted -= self._sent
        self._sent |= wanted
        found = fetch(self._tx, self._dialect, wanted, self._unit_kinds())
        for entity, probes in found:
            if self.index.add_found(entity.view, probes):
                self.created_at[entity.view.id] = entity.created_at
        return bool(found)

    def _unit_kinds(self) -> Collection[str] | None:
        """The entity kinds any mention of the unit is compared with, or None for every kind.
        One set for the whole unit, not per key: a probe is sent to the database once per unit
        (`_sent`), so what it brings back must serve every key that may send it later."""
        wanted: set[str] = set()
        for mention_kinds in self._kinds.values():
            compatible = compatible_kinds(mention_kinds)
            if compatible is None:
                return None
            wanted.update(compatible)
        return wanted if self._kinds else None

    def _ensure_remembered(self, memory: EntityIndex, keys: Iterable[str], depth: int) -> bool:
        """The probes looked up in memory, each hit weighed against the mention keys whose
        probes met it: only an entity with a spelling some rule could use for one of them
        (`may_pair`) and that this unit has not read yet is read, by id.

        A hit dropped for one key may matter to another, so the probes are tracked per mention
        key (its probes at `depth` less those of the depth it had reached), not once per batch:
        a probe two keys share is looked up for each and its hits weighed against both.
        """
        needs: dict[str, frozenset[str]] = {}
        nicknames: dict[str, set[str]] = {}
        for key in keys:
            reached = self._depth.get(key, -1)
            if reached >= depth:
                continue
            self._depth[key] = depth
            needed = depth_probes(key, depth)
            if reached >= EXACT:
                needed -= depth_probes(key, reached)
            needs[key] = needed
            for probe, people in self._nickname_probes(key, depth).items():
                nicknames.setdefault(probe, set()).update(people)
        kinds: Mapping[str, Collection[str]] = self._kinds
        if nicknames:  # each probe its own sender: its hits pair with it, not with the key
            for probe in nicknames:
                needs[probe] = needs.get(probe, frozenset()) | {probe}
            kinds = {
                **self._kinds,
                **{p: self._kinds.get(p, set()) | people for p, people in nicknames.items()},
            }
        hits, wanting = memory.lookup_spelled(needs, kinds)
        fresh = {i: hit for i, hit in hits.items() if i not in self.index}
        for entity_id in hits.keys() - fresh.keys():
            self.index.add_found(self.index.get(entity_id), hits[entity_id][0])
        if self._far and depth == TWO_EDITS:
            aside = self._set_aside(memory, fresh, wanting, kinds, nicknames.keys())
            fresh = {entity_id: hit for entity_id, hit in fresh.items() if entity_id not in aside}
        unread = {
            entity_id: found
            for entity_id, (found, spellings, kind, _) in fresh.items()
            if _usable(found, wanting, spellings, kind, kinds)
        }
        rows = {entity_id: fresh[entity_id][3] for entity_id in unread}
        for entity, found in read_found(self._tx, self._dialect, memory, unread, rows):
            self.index.add_found(entity.view, found)
            self.created_at[entity.view.id] = entity.created_at
        return bool(hits)

    def _set_aside(
        self,
        memory: EntityIndex,
        fresh: dict[str, SpelledHit],
        wanting: dict[str, list[str]],
        kinds: Mapping[str, Collection[str]],
        nicknames: AbstractSet[str],
    ) -> set[str]:
        """The review read's entities to leave unread (`far`), the links of those that get one
        noted per mention key: those whose keys and kind are known, kept whole by their rows
        and unsettled, met by no nickname probe (a person mention's pool holds what those
        find, whoever sent them), and that no mention key which met them (and is compared with
        their kind) has a spelling within one edit of."""
        known = {
            entity_id: row
            for entity_id, (found, spellings, kind, row) in fresh.items()
            if spellings is not None and kind is not None and nicknames.isdisjoint(found)
        }
        aside: set[str] = set()
        for entity_id in memory.kept_unsettled(known):
            found, spellings, kind, row = fresh[entity_id]
            assert spellings is not None  # known
            assert kind is not None
            keys = _keys_meeting(found, wanting, kind, kinds)
            links = _far_links(entity_id, kind, spellings, keys)
            if links is None:
                continue
            aside.add(entity_id)
            if links:
                self._far_rows[entity_id] = row
            for key, link in links.items():
                self._far_links.setdefault(key, {})[entity_id] = link
        return aside


def _far_links(
    entity_id: str, kind: str, spellings: tuple[str, ...], keys: Iterable[str]
) -> dict[str, FarLink] | None:
    """Mention key → the entity's link, for the keys it gets one from; None where one of them
    has a spelling within one edit (the entity must be read)."""
    links: dict[str, FarLink] = {}
    for key in keys:
        link = far_link(key, entity_id, kind, spellings)
        if link == NEAR:
            return None
        if link is not None:
            links[key] = link
    return links


def _usable(
    probes: list[str],
    wanting: dict[str, list[str]],
    spellings: tuple[str, ...] | None,
    kind: str | None,
    kinds: Mapping[str, Collection[str]],
) -> bool:
    """Whether the entity could matter to a mention key that probed it: a mention of that key
    may be compared with its kind, and one of its spellings could pair with the key (each
    unknown: assumed so)."""
    keys = _keys_meeting(probes, wanting, kind, kinds)
    if spellings is None:
        return bool(keys)
    return any(may_pair(key, spelling) for key in keys for spelling in spellings)


def _keys_meeting(
    probes: list[str],
    wanting: dict[str, list[str]],
    kind: str | None,
    kinds: Mapping[str, Collection[str]],
) -> set[str]:
    """The mention keys that sent one of `probes` and have a mention that may be compared with
    an entity of `kind` (unknown: every key)."""
    keys = {key for probe in probes for key in wanting[probe]}
    if kind is not None:
        keys = {key for key in keys if _kind_may_matter(kinds.get(key), kind)}
    return keys


def _kind_may_matter(mention_kinds: Collection[str] | None, kind: str) -> bool:
    """`kinds_compatible` for any of `mention_kinds`, in one step however many they are (a
    batch may post one key under a thousand kinds)."""
    compatible = compatible_kinds(mention_kinds)
    return compatible is None or kind in compatible
