"""The name lists of the word guard (`api.service.lexicon.PersonNames`), as installed."""

import subprocess
import sys

import pytest

from castlegraph.api.service.lexicon import Lexicon, PersonNames
from castlegraph.api.service.word_lists import HashedWords, given_names
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import EntityView, make_mention
from castlegraph.resolver.entity_rules import NameGuard, decide

NAMES = PersonNames()
LEXICON = Lexicon()


def test_given_names_and_surnames_are_known_misspellings_are_not() -> None:
    assert all(NAMES(word) for word in ("sandra", "sondra", "jennifer", "miller", "lopez"))
    assert not any(NAMES(word) for word in ("kubernets", "maeia", "katerino", "zorvadb"))


def test_names_of_other_countries_are_known() -> None:
    """Swedish, Czech, Spanish and Polish names the US census lists lack (wordfreq's lists)."""
    assert all(
        NAMES(word) for word in ("katarina", "sundin", "borgström", "vallés", "ivona", "kowalska")
    )


def test_given_names_of_many_countries_are_known() -> None:
    """Irish, Indian, Ukrainian, Polish, Portuguese, Turkish and American given names that
    neither the census lists nor wordfreq know (`nam_dict.txt`, gender-guesser's data)."""
    words = ("siobhan", "aoife", "lakshmi", "oksana", "bogumiła", "joão", "gülşen")
    words += ("jayde", "kylee", "kiana", "alysha")
    assert [word for word in words if not NAMES(word)] == []


def test_the_frequency_floor_keeps_rare_names_out_and_no_floor_lets_misspellings_in() -> None:
    """`given_names(n)`: the names some country lists at frequency n (1 rare - 13 extremely
    common) or above. A hand-curated list: even its rarest entries are names, never typos."""
    rare = set(given_names(1))
    common = set(given_names(5))
    assert common < rare
    assert ("kyle" in common, "kylee" in common, "kylee" in rare) == (True, False, True)
    assert [w for w in ("maeia", "kubernets", "sandta", "jonh", "marai") if w in rare] == []


PEOPLE_ONE_EDIT_APART = [
    ("Jayde Smith", "Jayden Smith"),
    ("Jayden Smith", "Jayde Smith"),
    ("Kylee Walker", "Kyle Walker"),
    ("Kiana Brooks", "Tiana Brooks"),
    ("Alysha Patel", "Alisha Patel"),
    ("Alisha Patel", "Alysha Patel"),
]
"""The issue's pairs: two real given names one edit apart, each a name of its own."""


@pytest.mark.parametrize(("mention", "stored"), PEOPLE_ONE_EDIT_APART)
@pytest.mark.parametrize("kind", ["person", "other"])
def test_two_real_given_names_one_edit_apart_get_a_link_by_default(
    mention: str, stored: str, kind: str
) -> None:
    """By default, as the service builds the guard (`NameGuard(PersonNames())`, the lexicon):
    a person, or a mention an extractor could not classify, is never merged into the other."""
    decision = decide(
        make_mention(mention, kind),
        [EntityView.of("1", stored, "person")],
        fuzzy=True,
        is_known_word=LEXICON,
        names=NameGuard(NAMES),
    )
    assert (decision.rule, [(x.entity.name, x.reason) for x in decision.possibly_same_as]) == (
        "new",
        [(stored, "known_words")],
    )


def test_outside_the_person_kinds_two_names_are_a_typo_unless_the_kind_is_listed() -> None:
    """Only `dedup.person_kinds` ask the name lists: a band called `Kylee Walker` is a typo of
    `Kyle Walker` (the general word list does not know `kylee`); a kind listed there is
    guarded."""
    stored = [
        EntityView.of("1", "Kyle Walker", "band"),
        EntityView.of("2", "Kyle Walker", "author"),
    ]
    by_kind = {
        kind: decide(
            make_mention("Kylee Walker", kind),
            stored,
            fuzzy=True,
            is_known_word=LEXICON,
            names=NameGuard(NAMES, frozenset({"person", "author"})),
        ).rule
        for kind in ("band", "author")
    }
    assert by_kind == {"band": "typo", "author": "new"}


def test_hashed_words_answer_membership_exactly() -> None:
    words = HashedWords([["gerta", "gert"], ["gert"], []])
    assert (len(words), "gerta" in words, "gert" in words, "gerd" in words) == (
        2,
        True,
        True,
        False,
    )
    assert 1 not in words
    assert "x" not in HashedWords([])
    assert "x" not in HashedWords([[]])


def test_the_design_examples_hold_with_the_name_lists() -> None:
    guard = NameGuard(NAMES)
    never = frozenset[str]().__contains__
    existing = [EntityView.of("1", "Katarina", "person"), EntityView.of("2", "Katerino", "person")]
    katerina = decide(
        make_mention("Katerina", "person"), existing, fuzzy=True, is_known_word=never, names=guard
    )
    assert (katerina.rule, len(katerina.possibly_same_as)) == ("new", 2)
    kubernetes = [EntityView.of("1", "Kubernetes", "tool")]  # a person's is a link: below
    typo = decide(
        make_mention("Kubernets", "tool"),
        kubernetes,
        fuzzy=True,
        is_known_word=never,
        names=guard,
    )
    assert (typo.rule, entity_key(typo.entity.name if typo.entity else "")) == (
        "typo",
        "kubernetes",
    )
    maria = [EntityView.of("1", "Maria Lopez", "person")]
    typo = decide(
        make_mention("Maeia Lopez", "person"), maria, fuzzy=True, is_known_word=never, names=guard
    )
    assert (typo.rule, typo.entity.name if typo.entity else None) == ("typo", "Maria Lopez")


@pytest.mark.parametrize(
    ("mention", "stored"),
    [
        ("Anna Kołpak", "Anna Kołak"),  # two rare Polish surnames, neither listed
        ("Jan Pietrusiak", "Jan Pietrasiak"),
        ("Kubernets", "Kubernetes"),  # on a person: no known name to be a typo of
    ],
)
def test_two_unlisted_names_one_edit_apart_are_linked_not_merged(mention: str, stored: str) -> None:
    """By default a typo is a rare spelling of a known name: on people, the stored word must be
    known. Opted out, rule 4 converges them, as on every kind."""
    guard = NameGuard(NAMES)
    never = frozenset[str]().__contains__
    decision = decide(
        make_mention(mention, "person"),
        [EntityView.of("1", stored, "person")],
        fuzzy=True,
        is_known_word=never,
        names=guard,
    )
    assert (decision.rule, [(x.entity.name, x.reason) for x in decision.possibly_same_as]) == (
        "new",
        [(stored, "unknown_name")],
    )
    opted_out = decide(
        make_mention(mention, "person"),
        [EntityView.of("1", stored, "person")],
        fuzzy=True,
        is_known_word=never,
        names=NameGuard(NAMES, typos_onto_known_names=False),
    )
    assert (opted_out.rule, list(opted_out.possibly_same_as)) == ("typo", [])


def test_the_lists_are_built_without_keeping_their_sources() -> None:
    """wordfreq's lists and the census lists of zxcvbn (a password checker, 93,855 words) are
    read by a child process: none of their modules is kept once the names are hashed (in a
    process of its own, to see its modules)."""
    code = (
        "import sys; from api.service.lexicon import Lexicon, PersonNames;"
        " names, words = PersonNames(), Lexicon();"
        " print(names('sandra'), names('kubernets'), words('house'),"
        " sorted(m for m in sys.modules if m.startswith(('wordfreq', 'zxcvbn', '_census'))))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=300
    ).stdout
    assert shown.split() == ["True", "False", "True", "[]"]
