"""Scoring of one resolver's answers against the true ids of `bench quality`.

Every resolver, castlegraph or baseline, returns one `Outcome` per mention in stream order: the
entity it landed on (its own ids), the rule, and any review links. `score` maps entities to the
true id of the mention that created them and counts precision, recall and review load.
"""

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bench.er_quality.data import LabelledMention, TrueEntity
from bench.er_quality.reach import REACHES, reach
from castlegraph.resolver.entity_keys import entity_key

CREATING_RULES = frozenset({"new", "deferred"})
BEYOND_RULES = frozenset({"initials"})
"""Variant forms no rule of design §5.3 can reach (an initial is not within two edits);
`recall_rules` leaves them out, and they keep their own row. `recall_reachable` asks each
target instead (an initial of a short name may be within two edits)."""
CLASSES = ("variant_first", "short_keys")
"""Rows beside the forms: variants of entities first seen in a variant spelling, and of names
whose key is shorter than `LONG_KEY`."""
EXAMPLES = 15
PEOPLE = "person"
"""The kind whose entities are counted per locale (`per_locale`)."""
LONG_KEY = 6
"""castlegraph's typo rule needs keys of ≥ 6 code points; recall is also given for those."""


@dataclass(frozen=True, slots=True)
class Outcome:
    entity: str
    rule: str
    links: tuple[str, ...] = ()


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def score(
    stream: Sequence[LabelledMention],
    outcomes: Sequence[Outcome],
    entities: Sequence[TrueEntity],
    seconds: float,
) -> dict[str, Any]:
    """One resolver's scores:

    - a **converged** mention (any rule but `new`/`deferred`, a baseline's "hand it to an LLM",
      scored as new) is correct when its entity's true id is the mention's own: precision is
      correct / converged, per rule and overall;
    - a **target** is a mention whose true entity already has an entity and whose spelling that
      entity has not shown before: a true variant. It is recalled when it converged correctly,
      or stayed new with a review link to an entity of its true id (`recall_all` also counts
      repeated spellings);
    - a target is **reachable** when some rule could connect it to an earlier spelling of its
      true entity (`bench.er_quality.reach`): the recall the rules answer for is over reachable
      targets (`recall_reachable`; `recall_converged_reachable` without review links), the rest
      counted apart as beyond the rules. Rows per reach, for entities first seen in a variant
      spelling (`variant_first`: the reverse of the usual order), and for short keys (< 6 code
      points: only review links can catch those);
    - the **review load** is review links per 1,000 mentions; link precision the share of links
      that point at the mention's true entity;
    - **per locale** (`per_locale`), the same precision and recalls over the people of each
      locale the names were drawn from.
    """
    truth_of: dict[str, str] = {}  # resolver entity id -> true id of its creating mention
    created: set[str] = set()  # true ids that have an entity
    spellings: defaultdict[str, set[str]] = defaultdict(set)  # true id -> spellings seen
    group = {e.id: e.group for e in entities}
    name = {e.id: e.name for e in entities}
    people = _LocaleTally(entities)
    long_key = {e.id for e in entities if len(entity_key(e.name)) >= LONG_KEY}
    tally = _ReachTally(name, long_key)
    rules: defaultdict[str, Counter[str]] = defaultdict(Counter)
    forms: defaultdict[str, Counter[str]] = defaultdict(Counter)
    totals: Counter[str] = Counter()
    false_merges: list[dict[str, str]] = []
    misses: defaultdict[str, list[str]] = defaultdict(list)
    for mention, outcome in zip(stream, outcomes, strict=True):
        target = mention.truth in created
        variant = target and mention.name not in spellings[mention.truth]
        spellings[mention.truth].add(mention.name)
        reached = tally.observe(mention, variant)
        totals.update(
            links=len(outcome.links),
            good_links=sum(truth_of.get(x) == mention.truth for x in outcome.links),
        )
        if outcome.rule in CREATING_RULES:
            totals[outcome.rule] += 1
            truth_of.setdefault(outcome.entity, mention.truth)
            created.add(mention.truth)
            hit = any(truth_of.get(x) == mention.truth for x in outcome.links)
            kind_of_hit = "linked"
        else:
            correct = truth_of.get(outcome.entity) == mention.truth
            rules[outcome.rule]["converged"] += 1
            rules[outcome.rule]["correct"] += correct
            if group[mention.truth] != "near_name":
                totals["converged_not_near"] += 1
                totals["correct_not_near"] += correct
            if not correct:
                totals[f"false_merge_{group[mention.truth]}"] += 1
                _example(false_merges, _false_merge(mention, outcome, name, truth_of))
            hit, kind_of_hit = correct, "converged"
            if variant and correct:
                rules[outcome.rule]["variant_hits"] += 1
        people.count(mention, outcome, variant, reached, hit, how=kind_of_hit)
        if target:
            totals.update(targets_all=1, hits_all=int(hit))
        if variant and mention.truth in long_key:
            totals.update(targets_long=1, hits_long=int(hit))
        if variant:
            forms[mention.form]["targets"] += 1
            forms[mention.form][kind_of_hit] += hit
            tally.count(forms[mention.form], mention, reached, hit, kind_of_hit)
            if not hit:
                _example(
                    misses[mention.form], f"{mention.name} ⇐ {name[mention.truth]} ({reached})"
                )
    summary = _summary(stream, rules, forms, totals, seconds, false_merges, misses)
    return (
        summary
        | _reach_summary(forms, tally.reaches, tally.classes)
        | {"per_locale": people.rows()}
    )


def _false_merge(
    mention: LabelledMention, outcome: Outcome, name: dict[str, str], truth_of: dict[str, str]
) -> dict[str, str]:
    landed = name.get(truth_of.get(outcome.entity, ""), "?")
    return {"mention": mention.name, "rule": outcome.rule, "landed_on": landed}


class _LocaleTally:
    """The people's mentions counted per locale their names were drawn from."""

    def __init__(self, entities: Sequence[TrueEntity]) -> None:
        self._locale = {e.id: e.source for e in entities if e.kind == PEOPLE}
        self._counts: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def count(
        self,
        mention: LabelledMention,
        outcome: Outcome,
        variant: bool,
        reached: str,
        hit: bool,
        how: str,
    ) -> None:
        locale = self._locale.get(mention.truth)
        if locale is None:
            return
        counts = self._counts[locale]
        if outcome.rule not in CREATING_RULES:
            counts.update(converged=1, correct=int(hit))
        if variant:
            counts.update(targets=1, hits=int(hit), converged_hits=int(hit and how == "converged"))
            if reached != "beyond":
                counts.update(reachable=1, reachable_hits=int(hit))

    def rows(self) -> dict[str, dict[str, Any]]:
        return {locale: _locale_row(counts) for locale, counts in sorted(self._counts.items())}


def _locale_row(counts: Counter[str]) -> dict[str, Any]:
    """One locale's people: precision of their converged mentions, recall of their true
    variants (converged or linked; converged only; linked over what the rules reach)."""
    return {
        "converged": counts["converged"],
        "false_merges": counts["converged"] - counts["correct"],
        "precision": _ratio(counts["correct"], counts["converged"]),
        "targets": counts["targets"],
        "recall": _ratio(counts["hits"], counts["targets"]),
        "recall_converged_only": _ratio(counts["converged_hits"], counts["targets"]),
        "reachable": counts["reachable"],
        "recall_reachable": _ratio(counts["reachable_hits"], counts["reachable"]),
    }


def _example(examples: list[Any], example: object) -> None:
    if len(examples) < EXAMPLES:
        examples.append(example)


class _ReachTally:
    """What each true entity showed so far, and the targets counted by reach and class."""

    def __init__(self, name: dict[str, str], long_key: set[str]) -> None:
        self._name, self._long_key = name, long_key
        self._seen: defaultdict[str, list[str]] = defaultdict(list)  # true id -> keys seen
        self._variant_first: set[str] = set()  # first sighting was not the canonical name
        self.reaches: defaultdict[str, Counter[str]] = defaultdict(Counter)
        self.classes: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def observe(self, mention: LabelledMention, variant: bool) -> str:
        """The reach of a true variant over the keys its entity showed before it."""
        seen = self._seen[mention.truth]
        key = entity_key(mention.name)
        reached = reach(key, seen) if variant else "beyond"
        if not seen and mention.name != self._name[mention.truth]:
            self._variant_first.add(mention.truth)
        seen.append(key)
        return reached

    def count(
        self, form: Counter[str], mention: LabelledMention, reached: str, hit: bool, how: str
    ) -> None:
        rows = [form, self.reaches[reached]]
        if mention.truth in self._variant_first:
            rows.append(self.classes["variant_first"])
        if mention.truth not in self._long_key:
            rows.append(self.classes["short_keys"])
        for row in rows:
            _count_reach(row, reached, hit, how)


def _count_reach(counts: Counter[str], reached: str, hit: bool, how: str) -> None:
    """One target into a row: reachable or beyond the rules, and whether (how) it was caught."""
    counts["all"] += 1
    if reached == "beyond":
        counts.update(beyond=1, beyond_hits=int(hit))
    else:
        counts.update(reachable=1, reachable_hits=int(hit))
        counts[f"reachable_{how}"] += hit


def _reach_row(counts: Counter[str]) -> dict[str, Any]:
    return {
        "targets": counts["all"],
        "reachable": counts["reachable"],
        "beyond": counts["beyond"],
        "recall_reachable": _ratio(counts["reachable_hits"], counts["reachable"]),
        "recall_converged_reachable": _ratio(counts["reachable_converged"], counts["reachable"]),
        "caught_beyond": counts["beyond_hits"],
    }


def _reach_summary(
    forms: dict[str, Counter[str]],
    reaches: dict[str, Counter[str]],
    classes: dict[str, Counter[str]],
) -> dict[str, Any]:
    reachable = sum(f["reachable"] for f in forms.values())
    hits = sum(f["reachable_hits"] for f in forms.values())
    converged = sum(f["reachable_converged"] for f in forms.values())
    return {
        "reachable_targets": reachable,
        "beyond_rules": sum(f["beyond"] for f in forms.values()),
        "recall_reachable": _ratio(hits, reachable),
        "recall_converged_reachable": _ratio(converged, reachable),
        "per_form_reach": {form: _reach_row(counts) for form, counts in forms.items()},
        "per_reach": {r: _reach_row(reaches[r]) for r in REACHES if r in reaches},
        "per_class": {c: _reach_row(classes[c]) for c in CLASSES if c in classes},
    }


def _summary(
    stream: Sequence[LabelledMention],
    rules: dict[str, Counter[str]],
    forms: dict[str, Counter[str]],
    totals: Counter[str],
    seconds: float,
    false_merges: list[dict[str, str]],
    misses: dict[str, list[str]],
) -> dict[str, Any]:
    converged = sum(r["converged"] for r in rules.values())
    correct = sum(r["correct"] for r in rules.values())
    targets = sum(f["targets"] for f in forms.values())
    hits = sum(f["converged"] + f["linked"] for f in forms.values())
    per_rule = {
        rule: {**counts, "precision": _ratio(counts["correct"], counts["converged"])}
        for rule, counts in sorted(rules.items())
    }
    per_form = {
        form: {
            **counts,
            "recall": _ratio(counts["converged"] + counts["linked"], counts["targets"]),
        }
        for form, counts in forms.items()
    }
    return {
        "mentions": len(stream),
        "seconds": round(seconds, 3),
        "mentions_per_s": round(len(stream) / seconds, 1) if seconds else None,
        "entities_created": totals["new"] + totals["deferred"],
        "deferred": totals["deferred"],
        "converged": converged,
        "precision": _ratio(correct, converged),
        "precision_without_near_names": _ratio(
            totals["correct_not_near"], totals["converged_not_near"]
        ),
        "targets": targets,
        "recall": _ratio(hits, targets),
        "recall_rules": _ratio(
            sum(f["converged"] + f["linked"] for n, f in forms.items() if n not in BEYOND_RULES),
            sum(f["targets"] for n, f in forms.items() if n not in BEYOND_RULES),
        ),
        "recall_long_keys": _ratio(totals["hits_long"], totals["targets_long"]),
        "recall_converged_only": _ratio(sum(f["converged"] for f in forms.values()), targets),
        "recall_all": _ratio(totals["hits_all"], totals["targets_all"]),
        "review_links": totals["links"],
        "review_per_1k": round(1000 * totals["links"] / len(stream), 2) if stream else None,
        "link_precision": _ratio(totals["good_links"], totals["links"]),
        "false_merges": {
            g: totals[f"false_merge_{g}"] for g in ("plain", "near_name", "digit_sibling")
        },
        "per_rule": per_rule,
        "per_form": per_form,
        "false_merge_examples": false_merges,
        "miss_examples": dict(misses),
    }
