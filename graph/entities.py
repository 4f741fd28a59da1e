"""Use cases of entity resolution (DESIGN §5): resolve batches of mentions, read, curate.

A batch is resolved in one write unit: two indexed reads fetch every candidate (one-edit
probes for all mentions, then two-edit probes for the mentions no spelling rule can settle),
the rules decide mention after mention against those candidates plus the entities the batch
itself created or respelled, and one statement writes the new entities, spellings, MENTIONS and
POSSIBLY_SAME_AS edges. Nothing is ever merged or deleted.

Concurrency: FalkorDB serialises write units in the process that owns it; on Neo4j the unit
takes the `entities` lock first, so concurrent batches resolve one after the other and two
writers never create the same (kind, key) twice.
"""

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from graph.clock import utc_now
from graph.entity_index import BatchIndex, index_props, probe_keys, probe_params
from graph.errors import CastlegraphError
from graph.records import Entity, MentionResult
from graph.store import GraphStore, Tx
from resolver.entity_keys import entity_key as _entity_key
from resolver.entity_model import Decision, EntityView, Mention, is_alias_new
from resolver.entity_rules import decide

KnownWord = Callable[[str], bool]
entity_key = lru_cache(maxsize=100_000)(_entity_key)  # a batch repeats its names
ENTITIES_LOCK = "entities"


@dataclass(frozen=True, slots=True)
class MentionInput:
    """One validated sighting: the name is trimmed and the kind normalised (`make_mention`)."""

    drawer: str
    mention: Mention
    extractor: str | None = None
    origin: dict[str, str | int | float | bool] = field(default_factory=dict)
    job_id: str | None = None
    extracted_at: str | None = None


class UnknownDrawers(CastlegraphError):
    code = "input::invalid"
    status = 422

    def __init__(self, indexes: dict[int, str]) -> None:
        super().__init__(
            "mentions refer to drawers that do not exist",
            [
                {"index": i, "drawer": d, "error": "palace::drawer_not_found"}
                for i, d in indexes.items()
            ],
        )


@dataclass
class _Batch:
    """What one write unit decided so far, applied in order to the in-memory index."""

    index: BatchIndex
    created_at: dict[str, str]
    new_entities: dict[str, EntityView] = field(default_factory=dict)
    respelled: dict[str, EntityView] = field(default_factory=dict)


def resolve_mentions(
    store: GraphStore, inputs: Sequence[MentionInput], *, fuzzy: bool, known_word: KnownWord
) -> list[MentionResult]:
    def work(tx: Tx) -> list[MentionResult]:
        tx.lock(ENTITIES_LOCK)
        _check_drawers(tx, inputs)
        batch = _fetch_candidates(tx, store, [i.mention for i in inputs], fuzzy, known_word)
        now = utc_now()
        decisions = [_apply(batch, i.mention, fuzzy, known_word, now) for i in inputs]
        existing = _existing_mentions(tx, inputs, decisions, batch)
        results, mention_rows = _results(inputs, decisions, batch, existing, now)
        tx.run(
            "write_resolutions",
            new_entities=[_entity_props(v, now, store) for v in batch.new_entities.values()],
            spelling_updates=[
                _spelling_props(v, store)
                for v in batch.respelled.values()
                if v.id not in batch.new_entities
            ],
            mentions=mention_rows,
            links=_link_rows(inputs, decisions, now),
        )
        return results

    return store.write(work, use_case="resolve_mentions")


def dry_run(
    store: GraphStore, mention: Mention, *, fuzzy: bool, known_word: KnownWord
) -> tuple[Decision, dict[str, str]]:
    """What `mention` would resolve to, writing nothing; also returns created_at by entity id."""

    def work(tx: Tx) -> tuple[Decision, dict[str, str]]:
        batch = _fetch_candidates(tx, store, [mention], fuzzy, known_word)
        probes = probe_keys(entity_key(mention.name), two_edits=fuzzy)
        decision = decide(
            mention, batch.index.candidates(probes), fuzzy=fuzzy, is_known_word=known_word
        )
        return decision, batch.created_at

    return store.read(work, use_case="resolve_dry_run")


def _check_drawers(tx: Tx, inputs: Sequence[MentionInput]) -> None:
    wanted = sorted({i.drawer for i in inputs})
    found = {row["id"] for row in tx.run("existing_drawer_ids", ids=wanted)}
    missing = {n: i.drawer for n, i in enumerate(inputs) if i.drawer not in found}
    if missing:
        raise UnknownDrawers(missing)


def _fetch(tx: Tx, store: GraphStore, probes: set[str]) -> list[Entity]:
    if not probes:
        return []
    rows = tx.run("entities_by_probe_keys", **probe_params(probes, store.dialect))
    found = [Entity.from_props(row["entity"]) for row in rows]
    return [entity for entity in found if entity.same_as is None]


def _fetch_candidates(
    tx: Tx, store: GraphStore, mentions: Sequence[Mention], fuzzy: bool, known_word: KnownWord
) -> _Batch:
    """One-edit probes for every mention, then two-edit probes where no spelling rule fires."""
    keys = {entity_key(m.name) for m in mentions}
    found = _fetch(tx, store, {p for key in keys for p in probe_keys(key, two_edits=False)})
    batch = _Batch(BatchIndex(), {e.view.id: e.created_at for e in found})
    for entity in found:
        batch.index.put(entity.view)
    if fuzzy:
        unsettled = {
            entity_key(m.name)
            for m in mentions
            if decide(
                m,
                batch.index.candidates(probe_keys(entity_key(m.name), two_edits=False)),
                fuzzy=False,
                is_known_word=known_word,
            ).decision
            == "new"
        }
        deeper = {p for key in unsettled for p in probe_keys(key, two_edits=True)}
        for entity in _fetch(tx, store, deeper):
            if entity.view.id not in batch.index:
                batch.index.put(entity.view)
                batch.created_at[entity.view.id] = entity.created_at
    return batch


def _apply(
    batch: _Batch, mention: Mention, fuzzy: bool, known_word: KnownWord, now: str
) -> Decision:
    """Decide one mention and record its effect, so later mentions of the batch see it."""
    probes = probe_keys(entity_key(mention.name), two_edits=fuzzy)
    decision = decide(
        mention, batch.index.candidates(probes), fuzzy=fuzzy, is_known_word=known_word
    )
    if decision.decision == "new":
        created = EntityView(
            str(uuid.uuid4()), mention.name, mention.kind, entity_key(mention.name)
        )
        batch.new_entities[created.id] = created
        batch.created_at[created.id] = now
        batch.index.put(created)
        return replace(decision, entity=created)
    entity = decision.entity
    assert entity is not None  # a "same" decision always names its entity
    current = batch.index.get(entity.id)
    if is_alias_new(current, mention.name):
        respelled = replace(
            current,
            aliases=(*current.aliases, mention.name),
            alias_keys=(*current.alias_keys, entity_key(mention.name)),
        )
        batch.index.put(respelled)
        batch.respelled[respelled.id] = respelled
        if respelled.id in batch.new_entities:
            batch.new_entities[respelled.id] = respelled
        current = respelled
    return replace(decision, entity=current)


def _existing_mentions(
    tx: Tx, inputs: Sequence[MentionInput], decisions: Sequence[Decision], batch: _Batch
) -> set[tuple[str, str]]:
    pairs = {
        (i.drawer, d.entity.id)
        for i, d in zip(inputs, decisions, strict=True)
        if d.entity is not None and d.entity.id not in batch.new_entities
    }
    if not pairs:
        return set()
    rows = tx.run("existing_mentions", pairs=[{"drawer": a, "entity": b} for a, b in sorted(pairs)])
    return {(row["drawer"], row["entity"]) for row in rows}


def _results(
    inputs: Sequence[MentionInput],
    decisions: Sequence[Decision],
    batch: _Batch,
    existing: set[tuple[str, str]],
    now: str,
) -> tuple[list[MentionResult], list[dict[str, Any]]]:
    results: list[MentionResult] = []
    rows: list[dict[str, Any]] = []
    linked_pairs = set(existing)
    created_ids: set[str] = set()
    for item, decision in zip(inputs, decisions, strict=True):
        assert decision.entity is not None
        entity_id = decision.entity.id
        pair = (item.drawer, entity_id)
        linked = pair not in linked_pairs  # one MENTIONS per (drawer, entity): first one wins
        linked_pairs.add(pair)
        if linked:
            rows.append(
                {
                    "drawer": item.drawer,
                    "entity": entity_id,
                    "props": _mention_props(item, decision, now),
                }
            )
        created = decision.decision == "new" and entity_id not in created_ids
        created_ids.add(entity_id)
        final_view = batch.index.get(entity_id)
        results.append(
            MentionResult(
                entity=Entity(final_view, batch.created_at[entity_id]),
                created=created,
                linked=linked,
                observed_name=item.mention.name,
                rule=decision.rule,
                confidence=decision.confidence,
                possibly_same_as=tuple(link.entity.id for link in decision.possibly_same_as),
                evidence=dict(decision.evidence),
            )
        )
    return results, rows


def _mention_props(item: MentionInput, decision: Decision, now: str) -> dict[str, Any]:
    props: dict[str, Any] = {
        "name": item.mention.name,
        "rule": decision.rule,
        "confidence": decision.confidence,
        "created_at": now,
        "extractor": item.extractor,
        "job_id": item.job_id,
        "extracted_at": item.extracted_at,
    }
    props.update({f"origin_{key}": value for key, value in item.origin.items()})
    return {key: value for key, value in props.items() if value is not None}


def _link_rows(
    inputs: Sequence[MentionInput], decisions: Sequence[Decision], now: str
) -> list[dict[str, Any]]:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for decision in decisions:
        if decision.entity is None:
            continue
        for link in decision.possibly_same_as:
            pair = (decision.entity.id, link.entity.id)
            if pair[0] != pair[1] and pair not in rows:
                rows[pair] = {
                    "newer": pair[0],
                    "older": pair[1],
                    "props": {
                        "similarity": link.similarity,
                        "distance": link.distance,
                        "reason": link.reason,
                        "status": "pending",
                        "created_at": now,
                    },
                }
    return list(rows.values())


def _entity_props(view: EntityView, now: str, store: GraphStore) -> dict[str, Any]:
    return {
        "id": view.id,
        "name": view.name,
        "kind": view.kind,
        "key": view.key,
        "created_at": now,
        **_spelling_props(view, store),
    }


def _spelling_props(view: EntityView, store: GraphStore) -> dict[str, Any]:
    return {
        "id": view.id,
        "aliases": list(view.aliases),
        "alias_keys": list(view.alias_keys),
        **index_props(view, store.dialect),
    }
