"""Entity resolution rules (design §5.2, §5.3, §11), table-driven, no database."""

from __future__ import annotations

import ast
import itertools
import math
import random
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from castlegraph.resolver import entity_keys
from castlegraph.resolver.edits import Edit, edited_words, single_edit
from castlegraph.resolver.entity_pairs import may_pair, may_pair_all
from castlegraph.resolver.entity_rules import (
    MAX_REVIEW_LINKS,
    REVIEW_MIN_KEY_LEN,
    REVIEW_TWO_EDIT_MIN_SIMILARITY,
    TYPO_MIN_KEY_LEN,
    Decision,
    EntityView,
    NameGuard,
    decide,
    is_alias_new,
    make_mention,
)
from castlegraph.resolver.errors import EmptyLabel

# A fake lexicon: the real one is wired in the API layer.
KNOWN_WORDS = frozenset(
    {"maria", "mario", "jon", "john", "snow", "lopez", "marian", "marion", "johnson"}
)


def known(word: str) -> bool:
    return word in KNOWN_WORDS


Spec = tuple[str, str, str] | tuple[str, str, str, Sequence[str]]  # id, name, kind[, aliases]


def entities(*specs: Spec) -> list[EntityView]:
    return [EntityView.of(s[0], s[1], s[2], s[3] if len(s) == 4 else ()) for s in specs]


def resolve(name: str, kind: str, *specs: Spec, fuzzy: bool = True) -> Decision:
    return decide(make_mention(name, kind), entities(*specs), fuzzy=fuzzy, is_known_word=known)


def links(decision: Decision) -> list[tuple[str, str, int]]:
    return [(x.entity.name, x.reason, x.distance) for x in decision.possibly_same_as]


# --- rules 1-3: spelling ----------------------------------------------------------------------


@pytest.mark.parametrize("fuzzy", [True, False])
@pytest.mark.parametrize(
    ("mention", "existing", "rule", "confidence", "new_alias"),
    [
        ("Ada Lovelace", ("1", "Ada Lovelace", "person"), "exact", 1.0, None),
        ("ADA LOVELACE", ("1", "Ada Lovelace", "person"), "normalized", 0.98, "ADA LOVELACE"),
        ("NodeJS", ("1", "Node.js", "tool"), "normalized", 0.98, "NodeJS"),
        ("OBrien", ("1", "O'Brien", "person"), "normalized", 0.98, "OBrien"),
        ("Jose\u0301", ("1", "Jos\u00e9", "person"), "normalized", 0.98, "Jose\u0301"),
        ("K8S", ("1", "Kubernetes", "tool", ["k8s"]), "alias", 0.95, "K8S"),
        ("k8s", ("1", "Kubernetes", "tool", ["k8s"]), "alias", 0.95, None),
    ],
)
def test_spelling_rules_always_apply(  # pytest passes parameters by keyword
    *,
    mention: str,
    existing: Spec,
    rule: str,
    confidence: float,
    new_alias: str | None,
    fuzzy: bool,
) -> None:
    decision = resolve(mention, existing[2], existing, fuzzy=fuzzy)
    assert (decision.decision, decision.rule, decision.confidence) == ("same", rule, confidence)
    assert decision.entity is not None
    assert decision.entity.id == "1"
    assert decision.new_alias == new_alias
    assert decision.possibly_same_as == ()


def test_alias_evidence_names_the_alias() -> None:
    decision = resolve("K8S", "tool", ("1", "Kubernetes", "tool", ["kube", "k8s"]))
    assert decision.evidence["matched"] == "alias"
    assert decision.evidence["matched_spelling"] == "k8s"


@pytest.mark.parametrize(
    ("mention", "existing"),
    [("C++", "C"), ("C#", "C"), ("C", "C++"), ("cafe", "café"), ("Node JS", "Node")],
)
def test_different_keys_do_not_converge(mention: str, existing: str) -> None:
    decision = resolve(mention, "tool", ("1", existing, "tool"), fuzzy=False)
    assert (decision.decision, decision.rule, decision.entity) == ("new", "new", None)


# --- kinds and ties (design §5.2) -----------------------------------------------------------------


def test_other_mention_joins_a_specific_kind() -> None:
    decision = resolve("Ada", "other", ("1", "Ada", "person"))
    assert decision.rule == "exact"
    assert decision.entity is not None
    assert decision.entity.kind == "person"


def test_specific_mention_never_joins_an_other_entity() -> None:
    decision = resolve("Ada", "person", ("1", "Ada", "other"))
    assert (decision.decision, decision.entity) == ("new", None)
    decision = resolve("Kubernets", "tool", ("1", "Kubernetes", "other"))
    assert (decision.decision, decision.possibly_same_as) == ("new", ())


def test_other_mention_prefers_a_specific_kind_over_a_lower_id() -> None:
    decision = resolve("Ada", "other", ("1", "Ada", "other"), ("9", "Ada", "person"))
    assert decision.entity is not None
    assert decision.entity.id == "9"


def test_rule_order_comes_before_kind_preference() -> None:
    decision = resolve("ADA", "other", ("1", "ADA", "other"), ("2", "Ada", "person"))
    assert (decision.rule, decision.entity and decision.entity.id) == ("exact", "1")


@pytest.mark.parametrize("seed", range(6))
def test_ties_go_to_the_lowest_id_in_any_order(seed: int) -> None:
    pool = entities(*[(i, "Ada Lovelace", "person") for i in ("b", "10", "9", "c")])
    random.Random(seed).shuffle(pool)
    mention = make_mention("ada lovelace", "person")
    decision = decide(mention, pool, fuzzy=True, is_known_word=known)
    assert decision.entity is not None
    assert decision.entity.id == "10"  # compared as strings


def test_duplicate_and_irrelevant_candidates_are_harmless() -> None:
    pool = entities(("1", "Kubernetes", "tool"), ("2", "Docker", "tool"), ("3", "Kubernete", "org"))
    decision = decide(
        make_mention("Kubernets", "tool"), pool + pool, fuzzy=True, is_known_word=known
    )
    assert (decision.rule, decision.entity and decision.entity.id) == ("typo", "1")


# --- rule 4: typo -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mention", "existing", "winner", "confidence"),
    [
        ("Kubernets", ["Kubernetes"], "Kubernetes", 1 - 1 / 10),
        ("SurealDB", ["SurrealDB"], "SurrealDB", 1 - 1 / 9),
        ("Maeia Lopez", ["Maria Lopez"], "Maria Lopez", 1 - 1 / 11),
        ("JeanLuc", ["Jean-Luc"], "Jean-Luc", 1 - 1 / 8),  # a space edit is never word-blocked
        ("Jonsnow", ["Jon Snow"], "Jon Snow", 1 - 1 / 8),
        ("Node JS", ["NodeJS"], "NodeJS", 1 - 1 / 7),
        ("Kuberentes", ["Kubernetes"], "Kubernetes", 1 - 1 / 10),  # transposition
        ("Zorvan", ["Zorva", "Zorvax"], "Zorvax", 1 - 1 / 6),  # Zorva is too short to block
    ],
)
def test_typo_converges(mention: str, existing: list[str], winner: str, confidence: float) -> None:
    decision = resolve(mention, "x", *[(str(i), n, "x") for i, n in enumerate(existing)])
    assert (decision.decision, decision.rule) == ("same", "typo")
    assert decision.entity is not None
    assert decision.entity.name == winner
    assert math.isclose(decision.confidence, confidence)
    assert decision.new_alias == mention
    assert decision.possibly_same_as == ()


def test_typo_evidence() -> None:
    decision = resolve(
        "Kubernets", "tool", ("1", "Kubernetes", "tool"), ("2", "Kubernetes 2", "tool")
    )
    evidence = decision.evidence
    assert evidence["rule"] == "typo"
    assert evidence["distance"] == 1
    assert evidence["typo_candidates"] == ["1"]
    assert evidence["edit"] == {"op": "insert", "position": 8, "removed": "", "added": "e"}


def test_typo_by_alias() -> None:
    decision = resolve("Kubernets", "tool", ("1", "K8s", "tool", ["Kubernetes"]))
    assert decision.rule == "typo"
    assert decision.evidence["matched_spelling"] == "Kubernetes"


def test_name_and_alias_of_one_entity_count_once() -> None:
    decision = resolve("Kubernets", "tool", ("1", "Kubernetes", "tool", ["Kubernetas"]))
    assert (decision.rule, decision.evidence["typo_candidates"]) == ("typo", ["1"])


def test_same_key_duplicates_are_one_identity() -> None:
    decision = resolve(
        "Kubernets", "tool", ("2", "Kubernetes", "tool"), ("1", "kubernetes", "tool")
    )
    assert decision.rule == "typo"
    assert decision.entity is not None
    assert decision.entity.id == "1"
    decision = resolve(
        "Kubernets", "other", ("1", "Kubernetes", "other"), ("2", "Kubernetes", "tool")
    )
    assert decision.entity is not None
    assert decision.entity.id == "2"


def test_fuzzy_off_disables_typo_and_review() -> None:
    for mention, existing in [("Kubernets", "Kubernetes"), ("Mario", "Maria")]:
        decision = resolve(mention, "x", ("1", existing, "x"), fuzzy=False)
        assert (decision.decision, decision.possibly_same_as) == ("new", ())


# --- rule 5: new, with review links -----------------------------------------------------------


@pytest.mark.parametrize(
    ("mention", "existing", "expected"),
    [
        ("Mario Lopez", ["Maria Lopez"], [("Maria Lopez", "known_words", 1)]),
        ("Jon Snow", ["John Snow"], [("John Snow", "known_words", 1)]),
        ("Marian", ["Marion"], [("Marion", "known_words", 1)]),
        ("Python 3.12", ["Python 3.11"], [("Python 3.11", "digit_edit", 1)]),
        ("SR-2023-053", ["SR-2023-052"], [("SR-2023-052", "digit_edit", 1)]),
        ("v3", ["v2"], []),
        ("Mario", ["Maria"], [("Maria", "one_edit_short_key", 1)]),
        ("cafe", ["café"], [("café", "one_edit_short_key", 1)]),
        ("Vue JS", ["VueJS"], [("VueJS", "one_edit_short_key", 1)]),
        (
            "Johnsin",
            ["Johnson", "Johnsen"],
            [("Johnson", "ambiguous_typo", 1), ("Johnsen", "ambiguous_typo", 1)],
        ),
        (
            "Katerina",
            ["Katarina", "Katerino"],
            [("Katarina", "ambiguous_typo", 1), ("Katerino", "ambiguous_typo", 1)],
        ),
        ("Katorino", ["Katerina"], [("Katerina", "two_edits", 2)]),  # 1 - 2/8 = 0.75
        ("Johnsxx", ["Johnson"], []),  # two edits in 7: 0.71 < 0.75
        ("Ann", ["Ana"], []),
        ("C", ["C#"], []),
        ("Lovelace Ada", ["Ada Lovelace"], [("Ada Lovelace", "word_order", 0)]),
        ("Lovelace, Ada", ["Ada Lovelace"], [("Ada Lovelace", "word_order", 0)]),
        ("Hoper Grace", ["Grace Hopper"], [("Grace Hopper", "word_order", 1)]),
        ("Hoper Gracie", ["Grace Hopper"], []),  # two edits besides the order
        ("Li Bo", ["Bo Li"], []),  # sorted keys of 5: word order needs 6
        ("Postgresql", ["Postgres"], [("Postgres", "two_edits", 2)]),
        ("Postgres", ["PostgreSQL"], [("PostgreSQL", "two_edits", 2)]),
        ("Kristopher", ["Christopher"], [("Christopher", "two_edits", 2)]),
        ("Jonathon Smith", ["Jonathan Smyth"], [("Jonathan Smyth", "two_edits", 2)]),
    ],
)
def test_new_with_review_links(
    mention: str, existing: list[str], expected: list[tuple[str, str, int]]
) -> None:
    decision = resolve(mention, "x", *[(str(i), n, "x") for i, n in enumerate(existing)])
    assert (decision.decision, decision.rule, decision.confidence) == ("new", "new", 1.0)
    assert decision.entity is None
    assert decision.new_alias is None
    assert links(decision) == expected


def test_word_order_never_converges_even_with_one_candidate() -> None:
    decision = resolve("Lovelace Ada", "person", ("1", "Ada Lovelace", "person"))
    assert (decision.decision, decision.rule) == ("new", "new")
    [link] = decision.possibly_same_as
    assert (link.reason, link.similarity, link.distance) == ("word_order", 1.0, 0)
    assert decision.evidence["typo_candidates"] == []


def test_a_pair_within_two_edits_keeps_its_edit_reason_over_word_order() -> None:
    """`ab cdefg` / `ab cdegf`: one edit, and its sorted keys too; the edit rules have it."""
    decision = resolve("Ab Cdegf", "x", ("1", "Ab Cdefg", "x"))
    assert decision.rule == "typo"


NAMES = NameGuard(frozenset({"sandra", "sondra"}).__contains__, frozenset({"person", "author"}))


@pytest.mark.parametrize(
    ("kind", "entity_kind", "rule"),
    [
        ("person", "person", "new"),
        ("author", "author", "new"),
        ("other", "person", "new"),  # the entity's kind holds people
        ("tool", "tool", "typo"),
    ],
)
def test_given_names_block_the_typo_rule_on_kinds_that_hold_people(
    kind: str, entity_kind: str, rule: str
) -> None:
    entity = EntityView.of("1", "Sandra Miller", entity_kind)
    mention = make_mention("Sondra Miller", kind)
    decision = decide(mention, [entity], fuzzy=True, is_known_word=known, names=NAMES)
    assert decision.rule == rule
    if rule == "new":
        assert [link.reason for link in decision.possibly_same_as] == ["known_words"]


PEOPLE = NameGuard(frozenset({"sandra", "miller"}).__contains__, typos_onto_known_names=True)


@pytest.mark.parametrize(
    ("kind", "mention", "stored", "rule", "reasons"),
    [
        ("person", "Sandra Millr", "Sandra Miller", "typo", []),  # a rare spelling of a name
        ("person", "Sandra Miller", "Sandra Millr", "new", ["unknown_name"]),  # the reverse
        ("person", "Anna Kołpak", "Anna Kołak", "new", ["unknown_name"]),  # two unlisted names
        ("other", "Anna Kołpak", "Anna Kołak", "new", ["unknown_name"]),  # a person entity
        ("person", "JeanLuc Picard", "Jean Luc Picard", "typo", []),  # a space: never blocked
        ("tool", "Anna Kołpak", "Anna Kołak", "typo", []),  # only kinds that hold people
        ("tool", "Sandra Miller", "Sandra Millr", "typo", []),
    ],
)
def test_on_people_only_a_rare_spelling_of_a_known_name_converges(
    kind: str, mention: str, stored: str, rule: str, reasons: list[str]
) -> None:
    entity = EntityView.of("1", stored, "tool" if kind == "tool" else "person")
    decision = decide(
        make_mention(mention, kind), [entity], fuzzy=True, is_known_word=known, names=PEOPLE
    )
    assert (decision.rule, [link.reason for link in decision.possibly_same_as]) == (rule, reasons)
    if rule == "new":
        assert decision.evidence["typo_candidates"] == ["1"]
        assert decision.evidence["blocked"] == [
            {"entity": "1", "spelling": stored, "reason": "unknown_name"}
        ]


@pytest.mark.parametrize(
    ("mention", "stored"), [("Anna Kołpak", "Anna Kołak"), ("Sandra Miller", "Sandra Millr")]
)
def test_opted_out_a_typo_on_people_needs_no_known_name(mention: str, stored: str) -> None:
    """Off (`dedup.person_typos_onto_known_names = false`), rule 4 is the same on every kind:
    one edit, one identity, a typo."""
    names = NameGuard(frozenset({"sandra", "miller"}).__contains__, typos_onto_known_names=False)
    entity = EntityView.of("1", stored, "person")
    decision = decide(
        make_mention(mention, "person"), [entity], fuzzy=True, is_known_word=known, names=names
    )
    assert (decision.rule, list(decision.possibly_same_as)) == ("typo", [])


def test_a_name_list_keeps_the_design_examples() -> None:
    """`Katerina` with `Katarina` and `Katerino`: new, two links, when the list knows neither."""
    names = NameGuard(frozenset({"maria", "mario"}).__contains__)
    existing = [EntityView.of("1", "Katarina", "person"), EntityView.of("2", "Katerino", "person")]
    decision = decide(
        make_mention("Katerina", "person"), existing, fuzzy=True, is_known_word=known, names=names
    )
    assert (decision.rule, len(decision.possibly_same_as)) == ("new", 2)


def test_a_name_list_that_knows_both_names_keeps_the_design_example() -> None:
    """`Katerina` with `Katarina` and `Katerino`: two entities are one edit away, so rule 4 does
    not fire, even when a list knows `katarina` and `katerina` (that pair is blocked as two
    names: it still counts as a second candidate, and both are linked)."""
    names = NameGuard(frozenset({"katarina", "katerina"}).__contains__)
    existing = [EntityView.of("1", "Katarina", "person"), EntityView.of("2", "Katerino", "person")]
    decision = decide(
        make_mention("Katerina", "person"), existing, fuzzy=True, is_known_word=known, names=names
    )
    assert (decision.rule, links(decision)) == (  # by default `katerino` must be a known name
        "new",
        [("Katarina", "known_words", 1), ("Katerino", "unknown_name", 1)],
    )
    opted_out = NameGuard(names.is_known_name, typos_onto_known_names=False)
    decision = decide(
        make_mention("Katerina", "person"),
        existing,
        fuzzy=True,
        is_known_word=known,
        names=opted_out,
    )
    assert (decision.rule, links(decision)) == (
        "new",
        [("Katarina", "known_words", 1), ("Katerino", "ambiguous_typo", 1)],
    )
    assert decision.evidence["typo_candidates"] == ["1", "2"]


def test_a_digit_edit_is_no_second_candidate() -> None:
    """`Pythn 3.11` with `Python 3.11` and `Pythn 3.12`: only the first is a typo candidate
    (rule 4 counts entities one edit away whose edit touches no digit)."""
    decision = resolve(
        "Pythn 3.11", "tool", ("1", "Python 3.11", "tool"), ("2", "Pythn 3.12", "tool")
    )
    assert (decision.rule, decision.entity.id if decision.entity else None) == ("typo", "1")


def test_blocked_guards_are_in_the_evidence() -> None:
    decision = resolve("Python 3.12", "tool", ("1", "Python 3.11", "tool"))
    assert decision.evidence["blocked"] == [
        {"entity": "1", "spelling": "Python 3.11", "reason": "digit_edit"}
    ]


def test_review_links_are_capped_and_sorted() -> None:
    names = ["Katerinb", "Katerinc", "Katerinx", "Katerin", "Katerinaaa", "Katerinab", "Kxterina"]
    specs = [(f"id{9 - i}", n, "x") for i, n in enumerate(names)]
    decision = resolve("Katerina", "x", *specs)
    got = [(x.similarity, x.entity.id) for x in decision.possibly_same_as]
    assert len(got) == MAX_REVIEW_LINKS
    assert got == sorted(got, key=lambda t: (-t[0], t[1]))
    assert decision.evidence["review_candidates"] == len(names)


# --- helpers ----------------------------------------------------------------------------------


def test_make_mention_trims_and_normalises() -> None:
    assert make_mention("  Ada \n", " Person ") == make_mention("Ada", "person")


@pytest.mark.parametrize(("name", "kind", "field"), [(" ", "person", "name"), ("Ada", "", "kind")])
def test_make_mention_refuses_blank_labels(name: str, kind: str, field: str) -> None:
    with pytest.raises(EmptyLabel) as caught:
        make_mention(name, kind)
    assert caught.value.field == field


def test_is_alias_new() -> None:
    (entity,) = entities(("1", "Kubernetes", "tool", ["k8s"]))
    assert not is_alias_new(entity, "Kubernetes")
    assert not is_alias_new(entity, "k8s")
    assert is_alias_new(entity, "K8S")
    assert is_alias_new(entity, "kubernetes")


@pytest.mark.parametrize(
    ("source", "target", "edit"),
    [
        ("abc", "abd", Edit("substitute", 2, "c", "d")),
        ("abcd", "abdc", Edit("transpose", 2, "cd", "dc")),
        ("abc", "ac", Edit("delete", 1, "b", "")),
        ("ac", "abc", Edit("insert", 1, "", "b")),
        ("aab", "ab", Edit("delete", 1, "a", "")),  # where the strings first differ
        ("abc", "abc", None),
        ("abc", "cba", None),
        ("ca", "abc", None),  # OSA 3: no substring is edited twice
    ],
)
def test_single_edit(source: str, target: str, edit: Edit | None) -> None:
    assert single_edit(source, target) == edit


def _apply(source: str, edit: Edit) -> str:
    i = edit.position
    return source[:i] + edit.added + source[i + len(edit.removed) :]


def test_single_edit_agrees_with_osa_exhaustively() -> None:
    strings = ["".join(t) for n in range(5) for t in itertools.product("ab 1", repeat=n)]
    for a, b in itertools.product(strings, repeat=2):
        edit = single_edit(a, b)
        assert (edit is not None) == (OSA.distance(a, b) == 1), (a, b)
        if edit is not None:
            assert _apply(a, edit) == b, (a, b, edit)


@pytest.mark.parametrize(
    ("source", "target", "words"),
    [
        ("maria lopez", "mario lopez", ("maria", "mario")),
        ("jon snow", "john snow", ("jon", "john")),
        ("john snow", "jon snow", ("john", "jon")),
        ("maria lopez", "maria xlopez", ("lopez", "xlopez")),
        ("maria lopez", "mariax lopez", ("maria", "mariax")),
        ("jeanluc", "jean luc", None),
        ("ab cd", "a bcd", None),
    ],
)
def test_edited_words(source: str, target: str, words: tuple[str, str] | None) -> None:
    edit = single_edit(source, target)
    assert edit is not None
    assert edited_words(source, target, edit) == words


def test_two_edit_probe_length_matches_the_thresholds() -> None:
    longer = math.ceil(2 / (1 - REVIEW_TWO_EDIT_MIN_SIMILARITY) - 1e-9)
    assert max(longer - 2, REVIEW_MIN_KEY_LEN) == entity_keys.TWO_EDIT_PROBE_MIN_LEN
    assert TYPO_MIN_KEY_LEN >= REVIEW_MIN_KEY_LEN


_ALLOWED_ROOTS = {"__future__", "resolver", "rapidfuzz", "jellyfish"}
_MODULES = ["entity_keys", "entity_model", "entity_pairs", "entity_rules", "edits", "errors"]


@pytest.mark.parametrize("module", _MODULES)
def test_rules_import_only_stdlib_rapidfuzz_jellyfish(module: str) -> None:
    path = Path(entity_keys.__file__).with_name(f"{module}.py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots |= {alias.name for alias in node.names}
    roots = {name.removeprefix("castlegraph.").split(".")[0] for name in roots}
    assert roots <= _ALLOWED_ROOTS | set(sys.stdlib_module_names), roots


@settings(max_examples=1000, deadline=None)
@given(
    mention=st.text(alphabet="abcé d1-", min_size=1, max_size=12),
    name=st.text(alphabet="abcé d1-", min_size=1, max_size=12),
    alias=st.text(alphabet="abcé d1-", min_size=1, max_size=12),
)
def test_an_entity_none_of_whose_spellings_may_pair_changes_no_decision(
    mention: str, name: str, alias: str
) -> None:
    """`may_pair` weighs index hits before they are read (design §5.4): an entity it rules
    out for every spelling decides nothing, so leaving it unread changes no decision."""
    wanted = make_mention(mention.strip(" -") or "x", "tool")
    entity = EntityView.of("e1", name.strip(" -") or "y", "tool", [alias.strip(" -") or "z"])
    key = entity_keys.entity_key(wanted.name)
    if any(may_pair(key, spelling) for spelling in (entity.key, *entity.alias_keys)):
        return
    alone = decide(wanted, [], fuzzy=True, is_known_word=known)
    assert decide(wanted, [entity], fuzzy=True, is_known_word=known) == alone


@settings(max_examples=300, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.text(alphabet="abcé d1", min_size=0, max_size=14),
            st.text(alphabet="abcé d1", min_size=0, max_size=14),
        ),
        max_size=40,
    )
)
def test_may_pair_all_answers_what_may_pair_answers_pair_by_pair(
    pairs: list[tuple[str, str]],
) -> None:
    """The index weighs its hits in bulk (`may_pair_all`): the same answer for every pair,
    word order (`ad ab` / `ab ad`) and lengths two apart included."""
    pairs += [("ada lovelace", "lovelace ada"), ("hoper grace", "grace hopper"), ("ab", "abcd")]
    mention_keys, keys = [a for a, _ in pairs], [b for _, b in pairs]
    assert may_pair_all(mention_keys, keys) == [may_pair(a, b) for a, b in pairs]


def test_a_decision_reuses_the_remembered_key_of_its_mention() -> None:
    """Resolution asks for a mention's key at every step and decides it two or three times: the
    rules take the key from the one remembered cache, and derive a name's key once."""
    remembered = entity_keys.remembered_entity_key
    remembered.cache_clear()
    mention = make_mention("Kubernetes Operator", "tool")
    pool = entities(("e1", "Kubernetes Operater", "tool"))
    first = decide(mention, pool, fuzzy=True, is_known_word=known)
    again = decide(mention, pool, fuzzy=True, is_known_word=known)
    assert first == again
    assert first.evidence["mention_key"] == "kubernetes operator"
    info = remembered.cache_info()
    assert (info.misses, info.hits) == (1, 1)


@pytest.mark.parametrize(
    ("name", "fuzzy"),
    [
        ("Ada Lovelace", True),  # exact
        ("ada  lovelace", True),  # normalized
        ("Countess Ada", True),  # alias
        ("Ada Lovelacx", True),  # typo
        ("Lovelace Ada", True),  # new, with a word-order link
        ("Ada Lovelacx", False),  # new, no fuzzy rules
    ],
)
def test_a_decision_given_the_mention_key_is_the_one_worked_out_without_it(
    name: str, fuzzy: bool
) -> None:
    """A write unit hands `decide` the key it has at hand; the verdict is the same."""
    mention = make_mention(name, "person")
    pool = entities(
        ("e1", "Ada Lovelace", "person", ["Countess Ada"]), ("e2", "Ada Byron", "person")
    )
    given_key = decide(
        mention, pool, fuzzy=fuzzy, is_known_word=known, key=entity_keys.entity_key(name)
    )
    assert given_key == decide(mention, pool, fuzzy=fuzzy, is_known_word=known)
    assert given_key.evidence["mention_key"] == entity_keys.entity_key(name)
