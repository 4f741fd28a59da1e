"""The false merges of `bench quality` by class: which pairs of spellings converge wrongly.

A resolver's entity holds every spelling that landed on it (its name, then its aliases), so the
pair a false merge converged on is the mention's key and the closest of those spellings. The
classes (`classify_pair`) are the evidence a rule change for people has to work with.
"""

import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from rapidfuzz.distance import OSA

from bench.er_quality.data import LabelledMention, TrueEntity
from bench.er_quality.eval import CREATING_RULES, Outcome
from castlegraph.resolver.edits import Edit, edited_words, single_edit
from castlegraph.resolver.entity_keys import entity_key

KnownFor = Callable[[str], Callable[[str], bool]]
"""The word guard's lexicon for an entity kind."""


def _base(ch: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", ch) if unicodedata.category(c) != "Mn")


def _where(key: str, edit: Edit) -> str:
    """First or last letter of its word, or inside it."""
    start = key.rfind(" ", 0, edit.position) + 1
    end = key.find(" ", edit.position)
    end = len(key) if end == -1 else end
    if edit.position == start:
        return "first"
    width = len(edit.removed) or 0
    return "last" if edit.position + width >= end else "middle"


def _shape(source: str, edit: Edit) -> str:
    """What the edit looks like: a doubled letter, a diacritic, or its plain operation."""
    if edit.touches_space():
        return "space"
    p = edit.position
    if edit.op == "insert" and edit.added in source[max(0, p - 1) : p + 1]:
        return "doubled letter"  # the new letter repeats a neighbour
    if edit.op == "delete" and edit.removed in source[max(0, p - 1) : p] + source[p + 1 : p + 2]:
        return "doubled letter"
    if edit.op == "substitute" and (
        _base(edit.removed) == _base(edit.added) or not (edit.removed + edit.added).isascii()
    ):
        return "diacritic"
    return edit.op


def classify_pair(
    mention_key: str, stored_key: str, known: Callable[[str], bool]
) -> dict[str, Any]:
    """The class of one converged pair of keys (mention first): the edit between them (an
    insertion, deletion, substitution or transposition; at the first or last letter of a word
    or inside it; a doubled letter; a diacritic; a space), the length of the edited word,
    single- or multi-word names, and which side `known` (the word guard's lexicon, with the
    name lists for the kinds that hold people) knows. `false_merges` adds the rule that fired."""
    edit = single_edit(mention_key, stored_key)
    multi = "multi-word" if " " in mention_key or " " in stored_key else "one word"
    if edit is None:
        distance = OSA.distance(mention_key, stored_key)
        return {"edit": f"{distance} edits", "where": "-", "words": multi, "known": "-", "len": 0}
    words = edited_words(mention_key, stored_key, edit)
    if words is None:
        return {"edit": "space", "where": "-", "words": multi, "known": "-", "len": 0}
    mention_word, stored_word = words
    knows = (known(mention_word), known(stored_word))
    side = {(True, True): "both", (True, False): "mention", (False, True): "stored"}
    return {
        "edit": _shape(mention_key, edit),
        "where": _where(mention_key, edit),
        "words": multi,
        "known": side.get(knows, "neither"),
        "len": min(len(mention_word), len(stored_word)),
    }


def false_merges(
    stream: Sequence[LabelledMention],
    outcomes: Sequence[Outcome],
    entities: Sequence[TrueEntity],
    known_for: KnownFor,
) -> list[dict[str, Any]]:
    """Every converged mention that landed on another true entity, classed."""
    group = {e.id: e.group for e in entities}
    truth_of: dict[str, str] = {}
    spellings: defaultdict[str, list[str]] = defaultdict(list)
    rows: list[dict[str, Any]] = []
    for mention, outcome in zip(stream, outcomes, strict=True):
        key = entity_key(mention.name)
        if outcome.rule in CREATING_RULES:
            truth_of.setdefault(outcome.entity, mention.truth)
        elif truth_of.get(outcome.entity) != mention.truth:
            seen = spellings[outcome.entity] or [key]
            closest = min(seen, key=lambda s: (OSA.distance(key, s), s))
            rows.append(
                {
                    "rule": outcome.rule,
                    "kind": mention.kind,
                    "group": group[mention.truth],
                    "form": mention.form,
                    "mention": key,
                    "stored": closest,
                    **classify_pair(key, closest, known_for(mention.kind)),
                }
            )
        if key not in spellings[outcome.entity]:
            spellings[outcome.entity].append(key)
    return rows


def by_class(rows: Sequence[dict[str, Any]]) -> list[tuple[str, str, str, str, str, int]]:
    """Counts per (rule, edit, where, words, known side), most frequent first."""
    counts = Counter((r["rule"], r["edit"], r["where"], r["words"], r["known"]) for r in rows)
    return [(*cls, n) for cls, n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]
