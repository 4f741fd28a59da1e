"""`bench quality` measures recall over what the rules can reach (`bench.er_quality.reach`)."""

import pytest

from bench.er_quality.data import LabelledMention, TrueEntity
from bench.er_quality.eval import Outcome, score
from bench.er_quality.reach import reach


@pytest.mark.parametrize(
    ("key", "seen", "expected"),
    [
        ("ada lovelace", ["ada lovelace"], "spelling"),
        ("katerina", ["katarina"], "one_edit"),
        ("mario", ["maria"], "one_edit"),  # a review link on a short key
        ("kristopher", ["christopher"], "two_edits"),
        ("postgres", ["postgresql"], "two_edits"),
        ("johnsxx", ["johnson"], "beyond"),  # two edits in 7: 0.71 < 0.75
        ("lovelace ada", ["ada lovelace"], "word_order"),
        ("hoper grace", ["grace hopper"], "word_order"),
        ("j dean", ["james dean"], "beyond"),
        ("ann", ["ana"], "beyond"),
        ("konstanty winddak", ["konstznty windzk", "konstanty windak"], "one_edit"),
        ("konstanty winddak", ["konstznty windzk"], "beyond"),
        ("anything", [], "beyond"),
    ],
)
def test_reach_is_the_strongest_rule_over_the_spellings_seen(
    key: str, seen: list[str], expected: str
) -> None:
    assert reach(key, seen) == expected


def test_recall_leaves_variants_beyond_the_rules_apart() -> None:
    """`J. Dean` after `James Dean` cannot be caught by any rule: it is counted apart, while
    `Jmaes Dean` (one edit) missed is a miss."""
    entities = [TrueEntity("p1", "James Dean", "person", "plain", "test")]
    stream = [
        LabelledMention("James Dean", "person", "p1", "canonical"),
        LabelledMention("J. Dean", "person", "p1", "initials"),
        LabelledMention("Jmaes Dean", "person", "p1", "transposition"),
    ]
    outcomes = [Outcome("e1", "new"), Outcome("e2", "new"), Outcome("e3", "new")]
    result = score(stream, outcomes, entities, 1.0)
    assert (result["targets"], result["reachable_targets"], result["beyond_rules"]) == (2, 1, 1)
    assert (result["recall"], result["recall_reachable"]) == (0.0, 0.0)
    assert result["per_reach"]["one_edit"]["reachable"] == 1
    assert result["per_form_reach"]["initials"]["beyond"] == 1
