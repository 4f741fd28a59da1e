"""castlegraph's own resolution over a labelled stream, two ways.

`resolve_in_graph` is the real path and the headline number; `resolve_in_memory` runs the same
rules with no database, to show what the rules cost by themselves, and must agree with the real
path decision for decision (ties aside, which both break by id).
"""

import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from bench.er_quality.data import LabelledMention
from bench.er_quality.eval import Outcome
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.service.settings import GraphSettings, Settings
from castlegraph.graph.drawers.drawer_request import NewDrawer
from castlegraph.graph.drawers.palace import write_drawer
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import EntityView, is_alias_new, make_mention
from castlegraph.resolver.entity_rules import NameGuard, decide
from castlegraph.resolver.entity_search_keys import probe_keys, stored_keys

KnownWord = Callable[[str], bool]
BATCH = 1000
DRAWERS = 20


def resolve_in_graph(
    stream: Sequence[LabelledMention],
    known_word: KnownWord,
    *,
    batch: int = BATCH,
    names: NameGuard | None = None,
) -> tuple[list[Outcome], float]:
    """Outcomes and the seconds spent inside `resolve_mentions` (all batches).

    A `Runtime` on a fresh temporary data directory starts the embedded FalkorDB, a few drawers
    are written, and `graph.entities.resolution.resolve_mentions` resolves the stream in
    batches with the runtime's in-memory index: what `POST /api/mentions` calls, minus HTTP
    (the embedded database keeps no candidate index of its own then). Only those calls are
    timed."""
    known_word("warm")  # load the lexicon and the name lists before the clock starts
    if names is not None:
        names.is_known_name("warm")
    with tempfile.TemporaryDirectory(prefix="castlegraph-quality-") as tmp:
        runtime = Runtime(Settings(graph=GraphSettings(data_dir=Path(tmp) / "data")))
        runtime.start()
        try:
            store = runtime.store
            drawers = [
                write_drawer(
                    store,
                    NewDrawer("bench", "quality", f"quality drawer number {i}"),
                    runtime.policy,
                    memory=runtime.drawer_index,
                ).drawer.id
                for i in range(DRAWERS)
            ]
            outcomes: list[Outcome] = []
            seconds = 0.0
            for start in range(0, len(stream), batch):
                inputs = [
                    MentionInput(drawers[(start + i) % DRAWERS], make_mention(m.name, m.kind))
                    for i, m in enumerate(stream[start : start + batch])
                ]
                began = time.perf_counter()
                results = resolve_mentions(
                    store,
                    inputs,
                    fuzzy=True,
                    known_word=known_word,
                    names=names,
                    memory=runtime.entity_index,
                )
                seconds += time.perf_counter() - began
                outcomes += [Outcome(r.entity.view.id, r.rule, r.possibly_same_as) for r in results]
        finally:
            runtime.stop()
    return outcomes, seconds


class EntityIndex:
    """Entities by the deletion keys the graph stores for them: the rules' candidate search."""

    def __init__(self) -> None:
        self._views: dict[str, EntityView] = {}
        self._ids: defaultdict[str, set[str]] = defaultdict(set)

    def put(self, view: EntityView) -> None:
        self._views[view.id] = view
        for key in stored_keys(view):
            self._ids[key].add(view.id)

    def get(self, entity_id: str) -> EntityView:
        return self._views[entity_id]

    def candidates(self, probes: Iterable[str]) -> list[EntityView]:
        found: set[str] = set()
        for probe in probes:
            found |= self._ids.get(probe, set())
        return [self._views[entity_id] for entity_id in sorted(found)]


def resolve_in_memory(
    stream: Sequence[LabelledMention], known_word: KnownWord, names: NameGuard | None = None
) -> tuple[list[Outcome], float]:
    """The same rules (`resolver.entity_rules.decide`) against an in-memory deletion-key index
    (`EntityIndex`: the keys of `resolver.entity_search_keys.stored_keys`, probed with its
    `probe_keys`), new entities and aliases applied as `graph.entities.resolution` applies
    them; outcomes and seconds."""
    known_word("warm")
    if names is not None:
        names.is_known_name("warm")
    index = EntityIndex()
    outcomes: list[Outcome] = []
    began = time.perf_counter()
    for n, labelled in enumerate(stream):
        mention = make_mention(labelled.name, labelled.kind)
        key = entity_key(mention.name)
        probes = probe_keys(key, two_edits=True)
        if names is not None:
            probes = probes | names.nickname_probes(key, mention.kind)
        candidates = index.candidates(probes)
        decision = decide(mention, candidates, fuzzy=True, is_known_word=known_word, names=names)
        if decision.decision == "new":
            view = EntityView(f"e{n:08d}", mention.name, mention.kind, key)
            index.put(view)
            links = tuple(link.entity.id for link in decision.possibly_same_as)
            outcomes.append(Outcome(view.id, "new", links))
            continue
        assert decision.entity is not None
        current = index.get(decision.entity.id)
        if is_alias_new(current, mention.name):
            index.put(
                replace(
                    current,
                    aliases=(*current.aliases, mention.name),
                    alias_keys=(*current.alias_keys, key),
                )
            )
        outcomes.append(Outcome(current.id, decision.rule))
    return outcomes, time.perf_counter() - began
