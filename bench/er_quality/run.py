"""Resolution quality benchmark (design §10): precision, recall and review load, per rule.

One seeded, labelled mention stream (`bench.er_quality.data`) is resolved in this process by
castlegraph's real path, its rules in memory, and three baselines from their published
descriptions (`run`). Targets: precision of converged mentions ≥ 0.995, recall of true variants
≥ 0.95.
"""

import sys
from collections.abc import Callable, Sequence
from typing import Any

from bench.er_quality import lists
from bench.er_quality.baseline_graphiti import graphiti_minhash
from bench.er_quality.baselines import graphrag_fuzzy, length_band
from bench.er_quality.castle import resolve_in_graph, resolve_in_memory
from bench.er_quality.data import LabelledMention, TrueEntity, mention_stream, true_entities
from bench.er_quality.eval import Outcome, score
from bench.er_quality.merges import by_class, false_merges
from bench.er_quality.report import print_locales, print_merges, print_name_lists, print_tables
from castlegraph.api.service.lexicon import LANGUAGES, MIN_ZIPF, NAME_MIN_ZIPF, Lexicon, PersonNames
from castlegraph.api.service.nicknames import load_nicknames
from castlegraph.resolver.entity_rules import NameGuard

TARGET_PRECISION, TARGET_RECALL = 0.995, 0.95
STRICTER = (3.5,)
"""Zipf thresholds above the default, on the product's lexicon (wordfreq `small` lists)."""
LOOSER = (2.5,)
"""Below 3.0 the `small` lists have nothing more (they stop at Zipf 3), so looser lexicons
come from wordfreq's `large` lists of the same languages (`LargeLexicon`, bench-local)."""

Run = Callable[[Sequence[LabelledMention]], tuple[list[Outcome], float]]


def _never_a_word(word: str) -> bool:
    del word
    return False


def _agreement(a: Sequence[Outcome], b: Sequence[Outcome]) -> dict[str, Any]:
    """Do two castlegraph runs decide alike? Rules and link counts per mention (ids differ)."""
    differ = [
        i
        for i, (x, y) in enumerate(zip(a, b, strict=True))
        if x.rule != y.rule or len(x.links) != len(y.links)
    ]
    return {"mentions_differing": len(differ), "first_indexes": differ[:10]}


ANY_SPELLING_ROW = "castlegraph, person typos onto any spelling"
"""`dedup.person_typos_onto_known_names = false` (design §5.3), the default before, beside it."""


def _name_lists() -> dict[str, Callable[[str], bool]]:
    """The person-name lists the sweep compares (each with both person rules): the census
    alone, the lists before `nam_dict`, and the default."""
    return {
        "census only": PersonNames(languages=(), given_names_min_frequency=0),
        f"census + wordfreq large ≥ {NAME_MIN_ZIPF} (before)": PersonNames(
            given_names_min_frequency=0
        ),
        "census + nam_dict + wordfreq (default)": PersonNames(),
    }


def _name_sweep(
    stream: Sequence[LabelledMention], entities: Sequence[TrueEntity], known: Callable[[str], bool]
) -> dict[str, Any]:
    """Every name list with each person rule, rules in memory (they decide as the real path)."""
    rows: dict[str, Any] = {}
    for label, names in _name_lists().items():
        for strict in (True, False):
            rule = "onto known names" if strict else "onto any spelling"
            print(f"resolving in memory, {label}, {rule} ...", file=sys.stderr)
            guard = NameGuard(names, typos_onto_known_names=strict)
            found, seconds = resolve_in_memory(stream, known, guard)
            rows[f"{label}; {rule}"] = score(stream, found, entities, seconds)
    return rows


def run(
    seed: int, scale: float, sweep: bool, baselines: bool, merges: bool = False
) -> dict[str, Any]:
    """Resolve the stream with castlegraph through the real path (embedded FalkorDB,
    `resolve_mentions`): the headline, the other person rule beside it, castlegraph's rules in
    memory (which must agree with the real path), and with `baselines` the three of
    `bench.er_quality.baselines` and `bench.er_quality.baseline_graphiti`. With `sweep`: what
    each list of the word guard costs (`bench.er_quality.lists`), every person-name list with
    each person rule, and stricter and looser general lexicons (the trade-off
    `api.service.lexicon.MIN_ZIPF` decides), in memory."""
    entities = true_entities(seed, scale)
    stream = mention_stream(entities, seed)
    print(f"{len(entities):,} true entities, {len(stream):,} mentions", file=sys.stderr)
    nicknames = load_nicknames()
    default, names = Lexicon(), NameGuard(PersonNames(), nicknames=nicknames)
    any_spelling = NameGuard(names.is_known_name, typos_onto_known_names=False, nicknames=nicknames)
    runs: dict[str, Run] = {
        "castlegraph": lambda s: resolve_in_graph(s, default, names=names),
        "castlegraph (memory)": lambda s: resolve_in_memory(s, default, names),
        ANY_SPELLING_ROW: lambda s: resolve_in_graph(s, default, names=any_spelling),
    }
    if baselines:
        runs |= {
            "MemCastle band": length_band,
            "graphrag WRatio": graphrag_fuzzy,
            "Graphiti MinHash": graphiti_minhash,
        }
    results: dict[str, Any] = {}
    outcomes: dict[str, list[Outcome]] = {}
    for name, resolver in runs.items():
        print(f"resolving with {name} ...", file=sys.stderr)
        outcomes[name], seconds = resolver(stream)
        results[name] = score(stream, outcomes[name], entities, seconds)
    label = f"small ≥ {MIN_ZIPF} (default, {len(default.words):,})"
    lexicons: dict[str, Any] = {label: results["castlegraph"]}
    name_lists: dict[str, Any] = {}
    costs: dict[str, Any] = {}
    if sweep:
        costs = lists.measure()
        name_lists = _name_sweep(stream, entities, default)
        for label, known in _sweep():
            print(f"resolving in memory, lexicon {label} ...", file=sys.stderr)
            found, seconds = resolve_in_memory(stream, known, names)
            lexicons[label] = score(stream, found, entities, seconds)
    agreement = _agreement(outcomes["castlegraph"], outcomes["castlegraph (memory)"])
    print_tables(results, lexicons, agreement, len(entities))
    print_locales(results)
    if sweep:
        print_name_lists(name_lists, costs)
    wrong = false_merges(
        stream, outcomes["castlegraph"], entities, lambda kind: names.guard_for(kind, default)
    )
    print_merges(by_class(wrong), wrong if merges else None)
    return {
        "data": _describe(entities, stream),
        "targets": {"precision": TARGET_PRECISION, "recall": TARGET_RECALL},
        "resolvers": results,
        "lexicon": lexicons,
        "name_lists": name_lists,
        "list_costs": costs,
        "graph_vs_memory": agreement,
        "false_merges_by_class": [list(row) for row in by_class(wrong)],
    }


class LargeLexicon:
    """`api.service.lexicon.Lexicon` over wordfreq's `large` lists, which reach below Zipf 3."""

    def __init__(self, min_zipf: float, languages: tuple[str, ...] = LANGUAGES) -> None:
        from wordfreq import get_frequency_dict  # noqa: PLC0415 - heavy, only for the sweep

        floor = 10 ** (min_zipf - 9)
        self.words = frozenset(
            word
            for language in languages
            for word, frequency in get_frequency_dict(language, "large").items()
            if frequency >= floor
        )

    def __call__(self, word: str) -> bool:
        return word in self.words


def _sweep() -> list[tuple[str, Callable[[str], bool]]]:
    found: list[tuple[str, Callable[[str], bool]]] = [("guard off", _never_a_word)]
    for zipf in STRICTER:
        small = Lexicon(min_zipf=zipf)
        found.append((f"small ≥ {zipf} ({len(small.words):,})", small))
    for zipf in LOOSER:
        large = LargeLexicon(zipf)
        found.append((f"large ≥ {zipf} ({len(large.words):,})", large))
    return found


def _describe(entities: Sequence[TrueEntity], stream: Sequence[LabelledMention]) -> dict[str, Any]:
    def count(values: list[str]) -> dict[str, int]:
        return {v: values.count(v) for v in sorted(set(values))}

    return {
        "true_entities": len(entities),
        "mentions": len(stream),
        "entities_by_kind": count([e.kind for e in entities]),
        "entities_by_group": count([e.group for e in entities]),
        "entities_by_source": count([e.source for e in entities]),
        "mentions_by_form": count([m.form for m in stream]),
    }
