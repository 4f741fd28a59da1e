"""Reading entities and settling what resolution left for people (design §5.6, §11).

Aliases are the only curation: recording one never rewrites the canonical name and never
merges two entities; later sightings of the spelling converge by rule `alias`.
"""

from dataclasses import dataclass, replace
from typing import Any, Literal

from castlegraph.graph.backends.entity_key_params import probe_params
from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.entities.entity_candidates import id_params
from castlegraph.graph.entities.kind_locks import HeldKinds, kinds_meeting, write_holding
from castlegraph.graph.errors import AliasTaken, EntityNotFound, ReviewLinkNotFound
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity, spelling_props
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import is_alias_new
from castlegraph.resolver.entity_rules import OTHER_KIND
from castlegraph.resolver.errors import EmptyLabel

MENTIONS_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class ReviewCandidate:
    entity: Entity
    side: str
    similarity: float
    distance: int
    reason: str
    status: str
    created_at: str


@dataclass(frozen=True, slots=True)
class EntityMention:
    drawer: str
    props: dict[str, Any]


def _get(tx: Tx, entity_id: str) -> Entity:
    rows = tx.run("entity_by_id", id=entity_id)
    if not rows:
        raise EntityNotFound(entity_id)
    return Entity.from_props(rows[0]["entity"])


def get_entity(store: GraphStore, entity_id: str) -> Entity:
    return store.read(lambda tx: _get(tx, entity_id), use_case="get_entity")


def find_entities(
    store: GraphStore, name: str, kind: str | None, memory: EntityIndex | None = None
) -> list[Entity]:
    """Entities whose name or an alias has the key of `name`, by id (the caller pages). With
    `memory`, the key is looked up there (FalkorDB keeps no key index of its own then, design
    §5.4) and the entities it names are read by id."""
    key = entity_key(name)
    if memory is not None:
        memory.await_ready()
    found = store.read(lambda tx: _spelled(tx, store, key, memory, kind), use_case="find_entities")
    return [entity for entity in found if kind is None or entity.view.kind == kind]


def _spelled(
    tx: Tx, store: GraphStore, key: str, memory: EntityIndex | None, kind: str | None = None
) -> list[Entity]:
    """The entities whose name key or an alias key is `key`, by id, read in `tx` (of `kind`
    only where the database's index answers and a kind is given)."""
    if memory is not None and memory.catch_up(tx):
        ids = sorted(memory.lookup([key]))
        rows = tx.run("entities_by_ids", **id_params(ids, store.dialect)) if ids else []
        found = [Entity.from_props(row) for row in rows]
    else:
        params = probe_params([key], store.dialect)
        kinds = [kind] if kind is not None else None
        rows = tx.run("entities_by_probe_keys", **params, kinds=kinds)
        found = [Entity.from_props(row["entity"]) for row in rows]
    matching = [e for e in found if e.view.key == key or key in e.view.alias_keys]
    return sorted(matching, key=lambda entity: entity.view.id)


def entity_mentions(
    store: GraphStore, entity_id: str, limit: int = MENTIONS_LIMIT, *, viewer: str | None = None
) -> list[EntityMention]:
    """The newest `limit` observations of an entity, in drawers `viewer` may see."""

    def work(tx: Tx) -> list[EntityMention]:
        _get(tx, entity_id)
        rows = tx.run("entity_mentions", id=entity_id, limit=limit, viewer=viewer)
        return [EntityMention(row["drawer"], row["mention"]) for row in rows]

    return store.read(work, use_case="entity_mentions")


def review_candidates(
    store: GraphStore, entity_id: str, *, pending_only: bool = True
) -> list[ReviewCandidate]:
    def work(tx: Tx) -> list[ReviewCandidate]:
        _get(tx, entity_id)
        return [
            ReviewCandidate(
                entity=Entity.from_props(row["entity"]),
                side="older" if row["is_newer"] else "newer",
                similarity=float(row["link"]["similarity"]),
                distance=int(row["link"]["distance"]),
                reason=row["link"]["reason"],
                status=row["link"].get("status", "pending"),
                created_at=row["link"]["created_at"],
            )
            for row in tx.run("entity_review_links", id=entity_id)
        ]

    found = store.read(work, use_case="review_candidates")
    kept = [c for c in found if c.status == "pending" or not pending_only]
    return sorted(kept, key=lambda c: (-c.similarity, c.entity.view.id))


def add_alias(
    store: GraphStore, entity_id: str, alias: str, memory: EntityIndex | None = None
) -> Entity:
    """Record a spelling of an entity; the name itself or a known alias is a no-op.

    A spelling whose key is another compatible entity's name or alias key is refused
    (`AliasTaken`): two entities would then answer it, and saying they are one is the review
    verdict `same`. The check runs under the locks of the kinds the entity meets, which
    resolution takes too (`graph.entities.kind_locks`), in the unit that writes, so no writer
    can give that key to another entity in between.
    """
    if memory is not None:
        memory.await_ready()
    kind = get_entity(store, entity_id).view.kind  # unknown entity before blank alias (§5.6)

    def work(tx: Tx, held: HeldKinds) -> Entity:
        entity = _get(tx, entity_id)  # its spellings as they stand under the locks
        spelling = alias.strip()
        if not spelling:
            raise EmptyLabel("alias")
        spellings = _respelled(store, entity, spelling)
        if not spellings:
            return entity
        holders = [
            other
            for other in _spelled(tx, store, entity_key(spelling), memory)
            if other.view.id != entity_id and _kinds_meet(other.view.kind, entity.view.kind)
        ]
        held.check(holder.view.kind for holder in holders)
        if holders:
            raise AliasTaken(spelling, entity_id, _first_holder(holders, entity_key(spelling)))
        rows = tx.run("set_entity_spellings", id=entity_id, spellings=spellings)
        return Entity.from_props(rows[0]["entity"])

    return write_holding(store, kinds_meeting(kind), work, use_case="add_alias")


def _kinds_meet(kind: str, other: str) -> bool:
    """Whether a spelling of one kind could resolve to the other (design §5.2): the same
    kind, or `other` on either side."""
    return kind == other or OTHER_KIND in (kind, other)


def _first_holder(holders: list[Entity], key: str) -> str:
    """The entity named by the key before one that only has it as an alias, then by id."""
    return min(holders, key=lambda e: (e.view.key != key, e.view.id)).view.id


def _respelled(store: GraphStore, entity: Entity, spelling: str) -> dict[str, Any]:
    """The spelling properties after adding `spelling`; empty when it is already known."""
    if not is_alias_new(entity.view, spelling):
        return {}
    view = replace(
        entity.view,
        aliases=(*entity.view.aliases, spelling),
        alias_keys=(*entity.view.alias_keys, entity_key(spelling)),
    )
    return spelling_props(view, store.dialect, keys=store.stores_entity_keys)


def _unspelled(store: GraphStore, entity: Entity, spelling: str) -> dict[str, Any]:
    """The spelling properties after removing the alias `spelling`; empty when it has none.
    Aliases and their keys are parallel lists, so the key at the alias's place goes with it."""
    view = entity.view
    if spelling not in view.aliases:
        return {}
    at = view.aliases.index(spelling)
    kept = replace(
        view,
        aliases=view.aliases[:at] + view.aliases[at + 1 :],
        alias_keys=view.alias_keys[:at] + view.alias_keys[at + 1 :],
    )
    return {**spelling_props(kept, store.dialect, keys=store.stores_entity_keys), "unspelled": True}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The older entity of a settled pair, and the earlier verdict this one undid, if any."""

    entity: Entity
    undone: Literal["same"] | None = None


def settle_review(store: GraphStore, entity_id: str, other_id: str, verdict: str) -> Settlement:
    """`same`: the newer entity's name becomes an alias of the older; `different`: never again.

    The link records the alias its `same` added (`alias`; none when the older entity already
    had that spelling), so that `different` on a link settled `same` removes exactly that alias
    and the newer entity's `same_as` again (design §11, undo): its later sightings resolve as
    before the verdict, while the mentions written meanwhile keep their edges. `same` on a
    link settled `different` records the alias as on a pending one.

    Returns the older entity of the pair (the one that received or lost the alias, if any).
    Both entities' kinds are locked (`graph.entities.kind_locks`): kinds never change, so they
    are read before the unit.
    """
    kinds = {get_entity(store, entity_id).view.kind, get_entity(store, other_id).view.kind}

    def work(tx: Tx, held: HeldKinds) -> Settlement:
        entity = _get(tx, entity_id)
        _get(tx, other_id)
        links = tx.run("review_link", id=entity_id, other=other_id)  # not all the entity's
        if not links:
            raise ReviewLinkNotFound(entity_id, other_id)
        this_is_newer = bool(links[0]["is_newer"])
        older = Entity.from_props(links[0]["entity"]) if this_is_newer else entity
        newer = entity if this_is_newer else Entity.from_props(links[0]["entity"])
        link = links[0]["link"]
        recorded: str | None = link.get("alias")
        undone: Literal["same"] | None = None
        if verdict == "different" and link.get("status") == "same":
            undone = "same"
        if verdict == "same":
            spellings = _respelled(store, older, newer.view.name)
            alias = newer.view.name if spellings else recorded
            same_as: str | None = older.view.id
        else:
            spellings = _unspelled(store, older, recorded) if recorded and undone else {}
            alias = None
            same_as = None if newer.same_as == older.view.id else newer.same_as
        rows = tx.run(
            "settle_review_link",
            id=entity_id,
            other=other_id,
            status=verdict,
            now=utc_now(),
            alias=alias,
            newer=newer.view.id,
            same_as=same_as,
            older=older.view.id,
            spellings=spellings,
        )
        return Settlement(Entity.from_props(rows[0]["entity"]), undone)

    meeting = {met for kind in kinds for met in kinds_meeting(kind)}
    return write_holding(store, meeting, work, use_case="settle_review")
