"""`bench quality` classes castlegraph's false merges (`bench.er_quality.merges`)."""

import pytest

from bench.er_quality.data import LabelledMention, TrueEntity
from bench.er_quality.eval import Outcome
from bench.er_quality.merges import by_class, classify_pair, false_merges

NAMES = frozenset({"gert", "maria", "lopez", "grab"}).__contains__


@pytest.mark.parametrize(
    ("mention", "stored", "expected"),
    [
        ("gertt gunpf", "gert gunpf", ("doubled letter", "last", "multi-word", "stored", 4)),
        ("gerte", "gert", ("delete", "last", "one word", "stored", 4)),
        ("gert", "gerte", ("insert", "last", "one word", "mention", 4)),
        ("maeia lopez", "maria lopez", ("substitute", "middle", "multi-word", "stored", 5)),
        ("oliwier graś", "oliwier grab", ("diacritic", "last", "multi-word", "stored", 4)),
        ("kolak", "kołak", ("diacritic", "middle", "one word", "neither", 5)),
        ("lopez maria", "lopez mraia", ("transpose", "middle", "multi-word", "mention", 5)),
        ("annerose", "anne rose", ("space", "-", "multi-word", "-", 0)),
        ("abcdef", "abxdey", ("2 edits", "-", "one word", "-", 0)),
        ("maria", "xmaria", ("insert", "first", "one word", "mention", 5)),
    ],
)
def test_a_pair_is_classed_by_its_edit_and_what_the_lexicon_knows(
    mention: str, stored: str, expected: tuple[str, str, str, str, int]
) -> None:
    got = classify_pair(mention, stored, NAMES)
    assert (got["edit"], got["where"], got["words"], got["known"], got["len"]) == expected


def test_a_false_merge_is_classed_against_the_closest_spelling_its_entity_holds() -> None:
    """`Gerta` lands on the entity of `Gert` that also holds `Gret`: the pair is `gerta`/`gert`;
    correct convergences are not listed."""
    entities = [
        TrueEntity("p1", "Gert", "person", "near_name", "test"),
        TrueEntity("p2", "Gerta", "person", "near_name", "test"),
    ]
    stream = [
        LabelledMention("Gret", "person", "p1", "transposition"),
        LabelledMention("Gert", "person", "p1", "canonical"),
        LabelledMention("Gerta", "person", "p2", "canonical"),
        LabelledMention("GERTA", "person", "p2", "case"),
    ]
    outcomes = [Outcome("e1", "new"), Outcome("e1", "typo")]
    outcomes += [Outcome("e1", "typo"), Outcome("e1", "normalized")]
    rows = false_merges(stream, outcomes, entities, lambda kind: NAMES)
    assert [(r["rule"], r["mention"], r["stored"], r["known"]) for r in rows] == [
        ("typo", "gerta", "gert", "stored"),
        ("normalized", "gerta", "gerta", "-"),
    ]
    assert by_class(rows)[0] == ("normalized", "0 edits", "-", "one word", "-", 1)
