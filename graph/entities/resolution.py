"""Use cases of entity resolution (design §5): resolve batches of mentions, read, curate.

A batch is resolved in one write unit: indexed reads fetch the candidates (`_fetch_candidates`),
the rules decide mention after mention against them plus the entities the batch itself created
or respelled, and one statement writes the new entities, spellings, MENTIONS and
POSSIBLY_SAME_AS edges. Nothing is ever merged or deleted.
"""

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from castlegraph.graph.backends.store import GraphStore, Row, Tx
from castlegraph.graph.clock import utc_now
from castlegraph.graph.entities.edge_spellings import Pair, SpellingsSeen
from castlegraph.graph.entities.entity_candidates import (
    EXACT,
    ONE_EDIT,
    TWO_EDITS,
    Candidates,
    depth_probes,
)
from castlegraph.graph.entities.kind_locks import HeldKinds, write_holding
from castlegraph.graph.errors import UnknownDrawers
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity, MentionResult, origin_props, spelling_props
from castlegraph.resolver.entity_keys import remembered_entity_key as entity_key
from castlegraph.resolver.entity_model import Decision, EntityView, Mention, is_alias_new
from castlegraph.resolver.entity_rules import NameGuard, decide
from castlegraph.resolver.entity_search_keys import spelling_keys
from castlegraph.resolver.explain import Explanation, explain

KnownWord = Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class MentionInput:
    """One validated sighting: the name is trimmed and the kind normalised (`make_mention`)."""

    drawer: str
    mention: Mention
    extractor: str | None = None
    origin: dict[str, str | int | float | bool] = field(default_factory=dict)
    job_id: str | None = None
    extracted_at: str | None = None


_SPELLING_RULES = frozenset({"exact", "normalized", "alias"})


@dataclass
class _Batch:
    """What one write unit decided so far, applied in order to the in-memory index."""

    candidates: Candidates
    fuzzy: bool
    known_word: KnownWord
    names: NameGuard | None
    spelled: dict[Mention, Decision] = field(default_factory=dict)
    """Rules 1-3 per distinct mention against the stored entities alone, before any change."""
    keys: dict[str, str] = field(default_factory=dict)
    """The entity key of each name met so far (`key_of`)."""
    new_entities: dict[str, EntityView] = field(default_factory=dict)
    respelled: dict[str, EntityView] = field(default_factory=dict)

    def key_of(self, mention: Mention) -> str:
        """The mention's entity key: each step of a mention's resolution asks for it, and a
        plain dict answers a name met before faster than the shared, locked key cache."""
        key = self.keys.get(mention.name)
        if key is None:
            key = self.keys[mention.name] = entity_key(mention.name)
        return key


def resolve_mentions(
    store: GraphStore,
    inputs: Sequence[MentionInput],
    *,
    fuzzy: bool,
    known_word: KnownWord,
    names: NameGuard | None = None,
    viewer: str | None = None,
    memory: EntityIndex | None = None,
) -> list[MentionResult]:
    """Resolve a batch in one write unit; `names` adds given names and surnames to the word
    guard for kinds that hold people; `viewer` is the agent whose token posted the batch (a
    drawer it may not see is unknown); `memory` answers the candidate probes once it is built.

    With an in-memory candidate index (`graph.indexes.entity_index`), the unit first catches it up
    on what other writers committed (after the lock, before any read of candidates), answers the
    probes in memory, and adds its own entities once its statement has committed.

    Concurrency: FalkorDB serialises write units in the process that owns it; on Neo4j the unit
    first takes the lock of each kind its mentions meet (`graph.entities.kind_locks`), so batches
    that meet a kind resolve one after the other and two writers never create the same
    (kind, key) twice, while batches of other kinds go on beside them.
    """

    wrote: list[tuple[Row, list[Entity]]] = []
    """The write statement's answer and what it changed, of the attempt that committed (the
    unit's own answer stays the results: `graph.backends.observe` subscribers count them)."""

    def work(tx: Tx, held: HeldKinds) -> list[MentionResult]:
        _check_drawers(tx, inputs, viewer)
        remembered = memory if memory is not None and memory.catch_up(tx) else None
        mentions = [i.mention for i in inputs]
        batch = _fetch_candidates(
            tx, store, mentions, fuzzy, known_word, names, remembered, far=True
        )
        now = utc_now()
        decisions = [_apply(batch, i.mention, now) for i in inputs]
        held.check(batch.candidates.kinds())
        existing = _existing_mentions(tx, inputs, decisions, batch)
        results, mention_rows = _results(inputs, decisions, batch, existing, now)
        respelled = [v for v in batch.respelled.values() if v.id not in batch.new_entities]
        changed = [*batch.new_entities.values(), *respelled]
        [written] = tx.run(
            "write_resolutions",
            bump=int(bool(changed)),
            new_entities=[
                Entity(v, now).to_props(store.dialect, cached=True, keys=store.stores_entity_keys)
                for v in batch.new_entities.values()
            ],
            spelling_updates=[
                {
                    "id": v.id,
                    **spelling_props(v, store.dialect, cached=True, keys=store.stores_entity_keys),
                }
                for v in respelled
            ],
            mentions=mention_rows,
            links=_link_rows(inputs, decisions, now),
        )
        created_at = batch.candidates.created_at
        # a retried attempt replaces the one before
        wrote[:] = [(written, [Entity(view, created_at[view.id]) for view in changed])]
        return results

    if memory is not None:  # FalkorDB keeps no key index while it builds: wait for it
        memory.await_ready()
    kinds = {i.mention.kind for i in inputs}
    results = write_holding(store, kinds, work, use_case="resolve_mentions")
    [(written, changed)] = wrote
    if memory is not None and changed:  # committed: what the unit wrote joins the index
        # A unit that changed nothing did not advance the counter: the value its statement
        # read may be another kind's unit's, committed since the catch-up (design §2.2).
        memory.written(written["epoch"], int(written["seq"]), changed)
    return results


def dry_run(
    store: GraphStore,
    mention: Mention,
    *,
    fuzzy: bool,
    known_word: KnownWord,
    names: NameGuard | None = None,
    memory: EntityIndex | None = None,
) -> tuple[Decision, dict[str, str]]:
    """What `mention` would resolve to, writing nothing; also returns created_at by entity id."""
    decision, created_at, _ = explained_dry_run(
        store, mention, fuzzy=fuzzy, known_word=known_word, names=names, memory=memory
    )
    return decision, created_at


def explained_dry_run(
    store: GraphStore,
    mention: Mention,
    *,
    fuzzy: bool,
    known_word: KnownWord,
    names: NameGuard | None = None,
    memory: EntityIndex | None = None,
) -> tuple[Decision, dict[str, str], Explanation]:
    """`dry_run`, and why each candidate the decision weighed converged, got a link or neither
    (`resolver.explain`), from the same read."""

    def work(tx: Tx) -> tuple[Decision, dict[str, str], Explanation]:
        remembered = memory if memory is not None and memory.catch_up(tx) else None
        batch = _fetch_candidates(tx, store, [mention], fuzzy, known_word, names, remembered)
        decision = _decided(batch, mention)
        depth = batch.candidates.depth(batch.key_of(mention))
        seen = batch.candidates.index.candidates(_probes(batch, mention, depth), mention.kind)
        why = explain(mention, seen, decision, fuzzy=fuzzy, is_known_word=known_word, names=names)
        return decision, batch.candidates.created_at, why

    if memory is not None:
        memory.await_ready()
    return store.read(work, use_case="resolve_dry_run")


def _check_drawers(tx: Tx, inputs: Sequence[MentionInput], viewer: str | None) -> None:
    wanted = sorted({i.drawer for i in inputs})
    found = {row["id"] for row in tx.run("existing_drawer_ids", ids=wanted, viewer=viewer)}
    missing = {n: i.drawer for n, i in enumerate(inputs) if i.drawer not in found}
    if missing:
        raise UnknownDrawers(missing)


def _fetch_candidates(
    tx: Tx,
    store: GraphStore,
    mentions: Sequence[Mention],
    fuzzy: bool,
    known_word: KnownWord,
    names: NameGuard | None,
    memory: EntityIndex | None = None,
    *,
    far: bool = False,
) -> _Batch:
    """Candidates in up to three reads, each for the mentions the previous one left open and
    only as deep as the decisions need, because the probes are what costs (about 1, 15 and 100
    probe keys per mention at depths 0, 1 and 2); with `far`, the third leaves the look-alikes
    that can only add review links unread (`Candidates`):

    1. Rules 1-3 fire on equal keys only, and every stored spelling's index keys include that
       spelling's own key, so probing with the mention keys themselves finds every entity a
       spelling rule can pick. Most mentions of a real batch are repeats and respellings that
       settle here.
    2. The typo rule needs every one-edit candidate, which the one-edit neighbourhood finds.
    3. Only a mention that ends up new needs the two-edit review candidates.

    Which mentions need reads 2 and 3 is decided against the stored entities alone; the batch's
    own entities can change a verdict, which `_current_decision` catches.
    """
    candidates = Candidates(tx, store.dialect, memory, names if fuzzy else None, far=far)
    batch = _Batch(candidates, fuzzy, known_word, names)
    found = batch.candidates
    for mention in mentions:
        found.expect(batch.key_of(mention), mention.kind)
    found.ensure(set(batch.keys.values()), EXACT)
    for mention in mentions:
        if mention not in batch.spelled:
            batch.spelled[mention] = _spelled(batch, mention)
    if fuzzy:
        unsettled = {m: batch.key_of(m) for m, d in batch.spelled.items() if d.decision == "new"}
        found.ensure(unsettled.values(), ONE_EDIT)
        found.ensure(
            (k for m, k in unsettled.items() if _look_alikes(batch, m, ONE_EDIT).decision == "new"),
            TWO_EDITS,
        )
    return batch


def _spelled(batch: _Batch, mention: Mention) -> Decision:
    """Rules 1-3 against the candidates that share the mention's key: all they can pick."""
    key = batch.key_of(mention)
    candidates = batch.candidates.index.candidates((key,), mention.kind)
    return decide(mention, candidates, fuzzy=False, is_known_word=batch.known_word, key=key)


def _look_alikes(batch: _Batch, mention: Mention, depth: int = TWO_EDITS) -> Decision:
    """All rules against the mention's neighbourhood (rules 1-3 fire on none of it).

    One edit settles whether the typo rule fires (it counts one-edit candidates only); the
    two-edit candidates and a person's nickname pairs only add review links to a new entity.
    """
    key = batch.key_of(mention)
    candidates = batch.candidates.index.candidates(_probes(batch, mention, depth), mention.kind)
    far = None
    if depth == TWO_EDITS:
        read, far = batch.candidates.far_look_alikes(key)
        candidates += read
    return decide(
        mention,
        candidates,
        fuzzy=True,
        is_known_word=batch.known_word,
        names=batch.names,
        key=key,
        far=far,
    )


def _probes(batch: _Batch, mention: Mention, depth: int) -> frozenset[str]:
    """The probe keys of the mention at `depth`; at review depth, a person's nickname pairs'."""
    key = batch.key_of(mention)
    probes = depth_probes(key, max(depth, EXACT))
    if depth == TWO_EDITS and batch.fuzzy and batch.names is not None:
        probes = probes | batch.names.nickname_probes(key, mention.kind)
    return probes


def _current_decision(batch: _Batch, mention: Mention) -> Decision:
    """The verdict given what the batch has done so far.

    Each mention is first decided against its equal-key candidates alone (the spelling rules
    pick the same entity from that subset as from any superset), and only an unsettled mention
    is compared with its look-alikes. That first verdict, taken against the stored entities
    before the batch changes anything, stands unless the batch has since created or respelled
    an entity under the mention's key of a kind the mention is compared with: nothing else can
    change what rules 1-3 see (names and keys are never rewritten; aliases are only appended;
    kinds never change). The batch's own entities can make a verdict need a deeper search (a
    typo that a new look-alike makes ambiguous), so the final decision checks that its mention
    key was searched deep enough and, in the rare case it was not, fetches the rest before
    deciding again: no decision ever rests on a search shallower than it needs.
    """
    index = batch.candidates.index
    if index.touched(batch.key_of(mention), mention.kind):
        spelled = _spelled(batch, mention)
    else:
        spelled = batch.spelled[mention]
        if spelled.decision == "same":
            assert spelled.entity is not None  # a "same" decision always names its entity
            current = index.get(spelled.entity.id)  # maybe respelled since, by another key
            new_alias = mention.name if is_alias_new(current, mention.name) else None
            return replace(spelled, entity=current, new_alias=new_alias)
    if spelled.decision == "same" or not batch.fuzzy:
        return spelled
    return _look_alikes(batch, mention)


def _decided(batch: _Batch, mention: Mention) -> Decision:
    """The current verdict, once the mention key has been searched as deep as it needs."""
    if mention not in batch.spelled:  # a dry run has no pre-pass verdict to reuse
        batch.spelled[mention] = _spelled(batch, mention)
    decision = _current_decision(batch, mention)
    key = batch.key_of(mention)
    needed = _depth_needed(decision, batch.fuzzy)
    if batch.candidates.depth(key) < needed and batch.candidates.ensure((key,), needed):
        decision = _current_decision(batch, mention)
    return decision


def _depth_needed(decision: Decision, fuzzy: bool) -> int:
    """How deep the mention key must have been searched for `decision` to be the right one."""
    if decision.decision == "same":
        return EXACT if decision.rule in _SPELLING_RULES else ONE_EDIT
    return TWO_EDITS if fuzzy else EXACT


def _apply(batch: _Batch, mention: Mention, now: str) -> Decision:
    """Decide one mention and record its effect, so later mentions of the batch see it."""
    decision = _decided(batch, mention)
    index = batch.candidates.index
    if decision.decision == "new":
        key = batch.key_of(mention)
        created = EntityView(str(uuid.uuid4()), mention.name, mention.kind, key)
        batch.new_entities[created.id] = created
        batch.candidates.created_at[created.id] = now
        index.put_local(created, spelling_keys(key))
        return replace(decision, entity=created)
    entity = decision.entity
    assert entity is not None  # a "same" decision always names its entity
    current = index.get(entity.id)
    if is_alias_new(current, mention.name):
        key = batch.key_of(mention)
        respelled = replace(
            current, aliases=(*current.aliases, mention.name), alias_keys=(*current.alias_keys, key)
        )
        index.put_local(respelled, spelling_keys(key))
        batch.respelled[respelled.id] = respelled
        if respelled.id in batch.new_entities:
            batch.new_entities[respelled.id] = respelled
        current = respelled
    return replace(decision, entity=current)


def _existing_mentions(
    tx: Tx, inputs: Sequence[MentionInput], decisions: Sequence[Decision], batch: _Batch
) -> dict[Pair, list[str]]:
    """The MENTIONS edges the batch meets again, with the spellings each holds."""
    pairs = {
        (i.drawer, d.entity.id)
        for i, d in zip(inputs, decisions, strict=True)
        if d.entity is not None and d.entity.id not in batch.new_entities
    }
    if not pairs:
        return {}
    rows = tx.run("existing_mentions", pairs=[{"drawer": a, "entity": b} for a, b in sorted(pairs)])
    return {(row["drawer"], row["entity"]): row["spellings"] for row in rows}


def _results(
    inputs: Sequence[MentionInput],
    decisions: Sequence[Decision],
    batch: _Batch,
    existing: dict[Pair, list[str]],
    now: str,
) -> tuple[list[MentionResult], list[dict[str, Any]]]:
    """A result per mention, and the MENTIONS rows to write: a new edge per (drawer, entity)
    pair first seen, and the new spellings list of an edge that gained one."""
    results: list[MentionResult] = []
    rows: dict[Pair, dict[str, Any]] = {}
    linked_pairs = set(existing)
    spellings = SpellingsSeen(existing)
    created_ids: set[str] = set()
    for item, decision in zip(inputs, decisions, strict=True):
        assert decision.entity is not None
        entity_id = decision.entity.id
        pair = (item.drawer, entity_id)
        linked = pair not in linked_pairs  # one MENTIONS per (drawer, entity): first one wins
        linked_pairs.add(pair)
        spellings.saw(pair, item.mention.name)
        if linked:
            rows[pair] = {
                "drawer": item.drawer,
                "entity": entity_id,
                "props": _mention_props(item, decision, now),
            }
        created = decision.decision == "new" and entity_id not in created_ids
        created_ids.add(entity_id)
        final_view = batch.candidates.index.get(entity_id)
        results.append(
            MentionResult(
                entity=Entity(final_view, batch.candidates.created_at[entity_id]),
                created=created,
                linked=linked,
                observed_name=item.mention.name,
                rule=decision.rule,
                confidence=decision.confidence,
                possibly_same_as=tuple(link.entity.id for link in decision.possibly_same_as),
                evidence=dict(decision.evidence),
            )
        )
    for pair in spellings.changed:
        seen = spellings.of(pair)
        if pair in rows and len(seen) > 1:  # a new edge stores them only past its own name
            rows[pair]["props"]["spellings"] = seen
        elif pair not in rows:  # a stored edge: `write_resolutions` sets them on match
            rows[pair] = {"drawer": pair[0], "entity": pair[1], "props": {}, "spellings": seen}
    return results, list(rows.values())


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
    props.update(origin_props(item.origin))
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
