"""The tables of `bench quality` (one row per resolver, rule, variant form or lexicon)."""

from collections.abc import Sequence
from typing import Any

from bench.er_quality.data import PERSON_LOCALES, REGION_OF, REGIONS
from bench.er_quality.variants import FORMS
from bench.report import Cell, print_table


def _r(value: float | None) -> str | None:
    """Ratios with four decimals: the precision target is 0.995."""
    return None if value is None else f"{value:.4f}"


def _merges(result: dict[str, Any]) -> str:
    merges = result["false_merges"]
    return f"{merges['plain']}/{merges['near_name']}/{merges['digit_sibling']}"


def _quality_row(name: str, r: dict[str, Any]) -> list[Cell]:
    return [
        name,
        _r(r["precision"]),
        _r(r["precision_without_near_names"]),
        _r(r["recall"]),
        _r(r["recall_reachable"]),
        _r(r["recall_converged_reachable"]),
        _r(r["recall_long_keys"]),
        _r(r["recall_all"]),
        r["review_per_1k"],
        _r(r["link_precision"]),
        _merges(r),
    ]


QUALITY_COLUMNS = [
    "resolver",
    "precision",
    "prec ¬near",
    "recall",
    "rec reach",
    "merged reach",
    "rec key≥6",
    "rec all",
    "links/1k",
    "link prec",
    "false p/n/d",
]


def _speed_row(name: str, r: dict[str, Any], true_entities: int) -> list[Cell]:
    return [
        name,
        r["mentions_per_s"],
        r["seconds"],
        r["converged"],
        r["entities_created"],
        true_entities,
        r["deferred"] or None,
        _r(r["recall_converged_only"]),
    ]


SPEED_COLUMNS = [
    "resolver",
    "mentions/s",
    "seconds",
    "converged",
    "entities",
    "true ents",
    "deferred",
    "rec merged",
]


def print_tables(
    results: dict[str, Any], lexicons: dict[str, Any], agreement: dict[str, Any], true: int
) -> None:
    print_table(
        "Resolution quality (precision of converged mentions; recall of true variants, "
        "converged or review-linked)",
        QUALITY_COLUMNS,
        [_quality_row(name, r) for name, r in results.items()],
    )
    print_table(
        "Speed (same process, same stream) and volume",
        SPEED_COLUMNS,
        [_speed_row(name, r, true) for name, r in results.items()],
    )
    print_table(
        "Per rule: converged mentions, correct, precision, true variants caught",
        ["resolver", "rule", "converged", "correct", "precision", "variant hits"],
        [
            [name, rule, c["converged"], c["correct"], _r(c["precision"]), c.get("variant_hits", 0)]
            for name, r in results.items()
            for rule, c in r["per_rule"].items()
        ],
    )
    names = list(results)
    forms = ["canonical", *FORMS]
    first = results[names[0]]["per_form"]
    print_table(
        "Recall per variant form (true variants: converged + linked / targets)",
        ["form", "targets", "cg linked", *names],
        [
            [
                form,
                first.get(form, {}).get("targets"),
                first.get(form, {}).get("linked"),
                *[_r(results[n]["per_form"].get(form, {}).get("recall")) for n in names],
            ]
            for form in forms
        ],
    )
    _print_reach(results)
    print_table(
        "castlegraph word guard: lexicon threshold trade-off (real path)",
        [
            "lexicon",
            "precision",
            "prec ¬near",
            "recall",
            "rec key≥6",
            "rec merged",
            "links/1k",
            "link prec",
            "typo",
            "false p/n/d",
            "ment./s",
        ],
        [
            [
                label,
                _r(r["precision"]),
                _r(r["precision_without_near_names"]),
                _r(r["recall"]),
                _r(r["recall_long_keys"]),
                _r(r["recall_converged_only"]),
                r["review_per_1k"],
                _r(r["link_precision"]),
                r["per_rule"].get("typo", {}).get("converged"),
                _merges(r),
                r["mentions_per_s"],
            ]
            for label, r in lexicons.items()
        ],
    )
    print(
        "rec reach: recall (converged or linked) of the variants some rule can reach from a "
        "spelling of their entity seen before them; merged reach: the same, converged only; "
        "castlegraph graph vs in-memory rules: "
        f"{agreement['mentions_differing']} mentions decided differently\n"
        "false p/n/d: converged mentions of plain / near-name / digit-sibling true entities "
        "that landed on another entity; prec ¬near: precision without the planted near-name "
        "entities; rec key≥6: recall of variants of names whose key has ≥ 6 code points"
    )


REACH_ROWS = (
    ("reach: same key (rules 1-3)", "per_reach", "spelling"),
    ("reach: one edit", "per_reach", "one_edit"),
    ("reach: two edits", "per_reach", "two_edits"),
    ("reach: word order", "per_reach", "word_order"),
    ("beyond the rules", "per_reach", "beyond"),
    ("variant first (reverse order)", "per_class", "variant_first"),
    ("short keys (< 6)", "per_class", "short_keys"),
)


def _print_reach(results: dict[str, Any]) -> None:
    """Recall over what the rules can reach: per rule that could catch a variant, per form, and
    for the classes the forms cut across."""
    names = list(results)
    first = results[names[0]]
    rows: list[tuple[str, str, str]] = [*REACH_ROWS]
    rows += [(f"form: {form}", "per_form_reach", form) for form in ("canonical", *FORMS)]
    print_table(
        "Recall over what the rules reach (true variants converged or linked / reachable; "
        "beyond: no earlier spelling within the rules; cg merged: castlegraph converged only)",
        ["row", "targets", "beyond", "cg caught beyond", "cg merged", *names],
        [
            [
                label,
                first[section].get(row, {}).get("targets"),
                first[section].get(row, {}).get("beyond"),
                first[section].get(row, {}).get("caught_beyond"),
                _r(first[section].get(row, {}).get("recall_converged_reachable")),
                *[_r(results[n][section].get(row, {}).get("recall_reachable")) for n in names],
            ]
            for label, section, row in rows
        ],
    )


def print_merges(
    classes: Sequence[tuple[str, str, str, str, str, int]], rows: Sequence[dict[str, Any]] | None
) -> None:
    """castlegraph's false merges by class, and with `--merges` each of them."""
    print_table(
        "castlegraph false merges by class (rule, edit, where in the word, words, which side "
        "the lexicon knows)",
        ["rule", "edit", "where", "words", "known", "false merges"],
        [list(row) for row in classes],
    )
    if rows is None:
        return
    print_table(
        "castlegraph false merges (mention key → closest spelling of the entity it landed on)",
        ["rule", "kind", "group", "form", "mention", "stored", "edit", "where", "len", "known"],
        [
            [r["rule"], r["kind"], r["group"], r["form"], r["mention"], r["stored"], r["edit"],
             r["where"], r["len"], r["known"]]
            for r in rows
        ],
    )  # fmt: skip


def _region_rows(per_locale: dict[str, Any]) -> dict[str, dict[str, float | None]]:
    """The locales' counts summed per region (`bench.er_quality.data.REGIONS`)."""
    rows: dict[str, dict[str, float | None]] = {}
    for region, locales in REGIONS.items():
        found = [per_locale[loc] for loc in locales if loc in per_locale]
        converged = sum(r["converged"] for r in found)
        targets = sum(r["targets"] for r in found)
        reachable = sum(r["reachable"] for r in found)

        def weighted(key: str, weight: str, found: list[Any] = found) -> float:
            return sum((r[key] or 0) * r[weight] for r in found)

        rows[region] = {
            "precision": 1 - sum(r["false_merges"] for r in found) / converged
            if converged
            else None,
            "recall": weighted("recall", "targets") / targets if targets else None,
            "recall_reachable": weighted("recall_reachable", "reachable") / reachable
            if reachable
            else None,
        }
    return rows


def print_locales(results: dict[str, Any]) -> None:
    """People per locale (castlegraph), and per region for every resolver."""
    castle = results["castlegraph"].get("per_locale") or {}
    print_table(
        "castlegraph, people per locale (precision of converged mentions; recall of true "
        "variants converged or linked, converged only, and over what the rules reach)",
        ["region", "locale", "targets", "converged", "false", "precision", "recall",
         "rec merged", "rec reach"],
        [
            [REGION_OF[loc], loc, r["targets"], r["converged"], r["false_merges"],
             _r(r["precision"]), _r(r["recall"]), _r(r["recall_converged_only"]),
             _r(r["recall_reachable"])]
            for loc in PERSON_LOCALES
            if (r := castle.get(loc)) is not None
        ],
    )  # fmt: skip
    names = list(results)
    regions = {n: _region_rows(results[n].get("per_locale") or {}) for n in names}
    print_table(
        "People per region, every resolver: precision / recall (converged or linked)",
        ["region", *names],
        [
            [region, *[f"{_r(regions[n][region]['precision'])} / "
                       f"{_r(regions[n][region]['recall'])}" for n in names]]
            for region in REGIONS
        ],
    )  # fmt: skip


def print_name_lists(rows: dict[str, Any], costs: dict[str, Any]) -> None:
    """Each person-name list with each person rule, and what each list costs."""
    print_table(
        "castlegraph person-name lists × person rule (rules in memory): what each list adds",
        ["name lists; person typos", "precision", "recall", "rec reach", "rec merged",
         "links/1k", "false p/n/d", "people prec", "people rec reach"],
        [
            [label, _r(r["precision"]), _r(r["recall"]), _r(r["recall_reachable"]),
             _r(r["recall_converged_only"]), r["review_per_1k"], _merges(r),
             _r(_people(r)["precision"]), _r(_people(r)["recall_reachable"])]
            for label, r in rows.items()
        ],
    )  # fmt: skip
    print_table(
        "What each list costs: words, build in a child of its own (seconds, the child's peak "
        "RSS), and what the service keeps (8 bytes a word)",
        ["list", "words", "child s", "child peak MB", "service MB"],
        [
            [label, c["words"], c["child_seconds"], c["child_peak_mb"], c["service_mb"]]
            for label, c in costs.items()
        ],
    )


def _people(result: dict[str, Any]) -> dict[str, float | None]:
    """Every locale's people together."""
    found = list((result.get("per_locale") or {}).values())
    converged = sum(r["converged"] for r in found)
    reachable = sum(r["reachable"] for r in found)
    return {
        "precision": 1 - sum(r["false_merges"] for r in found) / converged if converged else None,
        "recall_reachable": sum((r["recall_reachable"] or 0) * r["reachable"] for r in found)
        / reachable
        if reachable
        else None,
    }
