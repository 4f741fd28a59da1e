"""The dry run's explanation (design §5.6), no database: per candidate its outcome and why, the
words whose lists are shown, and the CLI's rendering of it."""

from __future__ import annotations

from pathlib import Path

from castlegraph.api.cli.output import resolution
from castlegraph.api.http.app import create_app
from castlegraph.api.models.entities import ResolveOut
from castlegraph.api.models.explain import WordList
from castlegraph.api.service.settings import Settings
from castlegraph.resolver.entity_model import Decision, EntityView, make_mention
from castlegraph.resolver.entity_rules import NameGuard, decide
from castlegraph.resolver.explain import Explanation, explain
from castlegraph.resolver.nicknames import Nicknames

WORDS = frozenset({"maria", "mario", "lopez", "smith"})
NAMES = NameGuard(
    frozenset({"jayden", "robert"}).__contains__,
    nicknames=Nicknames.of([("robert", "bob")]),
)


def explained(
    name: str, kind: str, *stored: tuple[str, str, str], fuzzy: bool = True
) -> tuple[Decision, Explanation]:
    pool = [EntityView.of(i, entity, entity_kind) for i, entity, entity_kind in stored]
    mention = make_mention(name, kind)
    known = WORDS.__contains__
    decision = decide(mention, pool, fuzzy=fuzzy, is_known_word=known, names=NAMES)
    why = explain(mention, pool, decision, fuzzy=fuzzy, is_known_word=known, names=NAMES)
    return decision, why


def outcomes(why: Explanation) -> list[tuple[str, str, str | None, str | None]]:
    return [(p.entity.id, p.outcome, p.rule, p.reason) for p in why.pairs]


def test_each_candidate_gets_its_outcome() -> None:
    _, why = explained(
        "Mario Lopez",
        "person",
        ("1", "Maria Lopez", "person"),  # two known names: a link
        ("2", "Marxo Lopezz", "person"),  # two edits, similarity 0.83: a link
        ("3", "Bob Smith", "person"),  # no pair at all: not listed
        ("4", "Mario Lopez", "tool"),  # another kind: not compared
    )
    assert outcomes(why) == [
        ("1", "review_link", None, "known_words"),
        ("2", "review_link", None, "two_edits"),
    ]
    assert why.words == ("mario", "lopez", "maria")
    assert why.holds_people


def test_a_look_alike_of_a_converged_mention_says_why_it_got_nothing() -> None:
    _, why = explained("Abcdefgh", "tool", ("1", "Abcdexyh", "tool"), ("2", "Abcdefgx", "tool"))
    typo, far = why.pairs
    assert (typo.entity.id, typo.outcome, typo.rule, typo.distance) == ("2", "converged", "typo", 1)
    assert (far.entity.id, far.outcome, far.reason, far.distance) == ("1", "none", "two_edits", 2)
    assert far.why == (
        "two edits, key similarity 0.75 ≥ 0.75; but rule typo converged onto another entity first"
    )


def test_a_two_edit_pair_below_the_threshold_gets_no_link() -> None:
    decision, why = explained("Abcdef", "tool", ("1", "Abcxyf", "tool"))
    assert decision.possibly_same_as == ()
    [pair] = why.pairs
    assert (pair.outcome, pair.distance) == ("none", 2)
    assert pair.why == "2 edits, key similarity 0.67 < 0.75: no link"


def test_a_nickname_pair_and_its_given_names() -> None:
    _, why = explained("Bob Smith", "person", ("1", "Robert Smith", "person"))
    [pair] = why.pairs
    assert (pair.outcome, pair.reason, pair.nickname) == (
        "review_link",
        "nickname",
        ("bob", "robert"),
    )
    assert why.words == ("bob", "smith", "robert")


def test_fuzzy_off_weighs_equal_keys_only() -> None:
    _, why = explained("Mario Lopez", "person", ("1", "Maria Lopez", "person"), fuzzy=False)
    assert (why.fuzzy, why.pairs) == (False, ())


def test_the_cli_says_which_lists_know_each_word_and_why() -> None:
    decision, why = explained("Jayden Lopez", "person", ("1", "Jayde Lopez", "person"))
    lists = [
        WordList("common words", WORDS.__contains__),
        WordList("given names and surnames", NAMES.is_known_name, people_only=True),
    ]
    answer = ResolveOut.of(decision, {}, why, lists).model_dump(mode="json")
    text = resolution(answer)
    assert "  jayden: common words: no, given names and surnames: yes" in text
    assert "  jayde: common words: no, given names and surnames: no" in text
    assert (
        "Jayde Lopez [Jayde Lopez (person) 1]: review link (unknown_name): one edit, but the"
        " stored word 'jayde' is no known name: on people a typo converges only onto a known name"
    ) in text
    decision, why = explained("Jayden", "tool")
    tool = ResolveOut.of(decision, {}, why, lists).model_dump(mode="json")
    assert "jayden: common words: no, given names and surnames: yes (not asked for this kind)" in (
        resolution(tool)
    )


def test_the_document_lists_the_nickname_reason_and_the_explain_fields() -> None:
    document = create_app(Settings(graph={"data_dir": Path("/nonexistent")})).openapi()
    schemas = document["components"]["schemas"]
    resolve_out = schemas["ResolveOut"]
    assert "explain" in resolve_out["required"]
    assert resolve_out["properties"]["explain"]["$ref"] == "#/components/schemas/ExplainOut"
    assert set(schemas["ExplainOut"]["properties"]) == {
        "mention_key",
        "holds_people",
        "fuzzy",
        "words",
        "pairs",
    }
    for model in ("ReviewLinkListed", "CandidateOut", "ReviewLinkOut"):
        assert "`nickname`" in schemas[model]["properties"]["reason"]["description"], model
    [reason] = [
        p
        for p in document["paths"]["/api/review-links"]["get"]["parameters"]
        if p["name"] == "reason"
    ]
    assert "`nickname`" in reason["description"]


def test_a_nickname_pair_by_an_alias_shows_the_alias_and_its_key() -> None:
    pool = [EntityView.of("1", "R. Smith", "person", ["Robert Smith"])]
    mention = make_mention("Bob Smith", "person")
    known = WORDS.__contains__
    decision = decide(mention, pool, fuzzy=True, is_known_word=known, names=NAMES)
    [pair] = explain(mention, pool, decision, fuzzy=True, is_known_word=known, names=NAMES).pairs
    assert (pair.spelling, pair.key, pair.outcome) == (
        "Robert Smith",
        "robert smith",
        "review_link",
    )


def test_the_pairs_come_in_an_order_that_does_not_hang_on_ids() -> None:
    stored = [
        ("a", "John Snow", "person"),
        ("c", "Jon Snow", "person"),
        ("b", "Jon Snowe", "person"),
    ]
    for order in (stored, stored[::-1]):
        _, why = explained("Jon Snow", "person", *order)
        assert [(p.spelling, p.outcome) for p in why.pairs] == [
            ("Jon Snow", "converged"),
            ("John Snow", "none"),  # as close as `Jon Snowe`: by spelling
            ("Jon Snowe", "none"),
        ]
