"""Nicknames (design §5.3): the list as loaded, the pair and probe keys, and the decision —
a review link `nickname` between people, never a convergence, never on other kinds."""

from __future__ import annotations

import pytest

from castlegraph.api.service.nicknames import load_nicknames
from castlegraph.resolver.entity_model import Decision, EntityView, make_mention
from castlegraph.resolver.entity_rules import NameGuard, decide
from castlegraph.resolver.entity_search_keys import spelling_keys
from castlegraph.resolver.nicknames import Nicknames

SMALL = Nicknames.of(
    [("robert", "bob"), ("robert", "rob"), ("elizabeth", "liz"), ("William", "Bill"),
     ("john", "jon"), ("casey", "K.C."), ("anne", "anne"), ("mary ann", "molly")]
)  # fmt: skip
KNOWN = frozenset({"smith", "snow", "jon", "john"})


def known(word: str) -> bool:
    return word in KNOWN


def people(nicknames: Nicknames | None = SMALL) -> NameGuard:
    return NameGuard(frozenset[str]().__contains__, frozenset({"person"}), nicknames=nicknames)


def resolve(
    name: str, kind: str, *stored: tuple[str, str], names: NameGuard | None = None
) -> Decision:
    pool = [
        EntityView.of(str(n), entity, entity_kind) for n, (entity, entity_kind) in enumerate(stored)
    ]
    return decide(
        make_mention(name, kind), pool, fuzzy=True, is_known_word=known, names=names or people()
    )


# --- the list ----------------------------------------------------------------------------------


def test_the_package_list_knows_the_pairs_of_the_contract_both_ways() -> None:
    listed = load_nicknames()
    for name, nickname in [("robert", "bob"), ("elizabeth", "liz"), ("william", "bill")]:
        assert listed.are_pair(name, nickname)
        assert listed.are_pair(nickname, name)
    assert not listed.are_pair("robert", "william")
    assert not listed.are_pair("liz", "beth")  # two nicknames of one name are not a pair
    assert len(listed) > 2000


def test_names_are_keyed_like_entity_keys_and_odd_rows_are_dropped() -> None:
    assert SMALL.are_pair("william", "bill")  # lower-cased
    assert SMALL.are_pair("kc", "casey")  # `K.C.` keyed as `kc`
    assert not SMALL.knows("anne")  # a name paired with itself
    assert not SMALL.knows("molly")  # a name of two words is no given name


def test_a_pair_needs_the_same_surname_key() -> None:
    assert SMALL.pair_of("bob smith", "robert smith") == ("bob", "robert")
    assert SMALL.pair_of("robert smith", "bob smith") == ("robert", "bob")
    assert SMALL.pair_of("liz", "elizabeth") == ("liz", "elizabeth")
    assert SMALL.pair_of("bob smith", "robert smyth") is None
    assert SMALL.pair_of("bob smith", "robert") is None
    assert SMALL.pair_of("bob smith", "rob smith") is None


def test_probe_keys_are_stored_keys_of_every_pair() -> None:
    assert SMALL.probe_keys("bob smith") == {"robert smith"}
    assert SMALL.probe_keys("robert smith") == {"bob smith", "rob smith"}
    assert SMALL.probe_keys("zed smith") == frozenset()
    for mention, stored in [("bob smith", "robert smith"), ("robert smith", "bob smith"),
                            ("liz", "elizabeth"), ("elizabeth", "liz")]:  # fmt: skip
        assert SMALL.probe_keys(mention) & spelling_keys(stored)


# --- the decision ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mention", "stored"),
    [
        ("Bob Smith", "Robert Smith"),
        ("Robert Smith", "Bob Smith"),
        ("Liz", "Elizabeth"),
        ("Elizabeth", "Liz"),
        ("Bill Smith", "William Smith"),
    ],
)
def test_a_person_nickname_pair_gets_a_review_link_never_a_convergence(
    mention: str, stored: str
) -> None:
    decision = resolve(mention, "person", (stored, "person"))
    assert (decision.decision, decision.rule) == ("new", "new")
    assert [
        (x.entity.name, x.reason, x.similarity, x.distance) for x in decision.possibly_same_as
    ] == [(stored, "nickname", 1.0, 0)]
    given = [mention.split(maxsplit=1)[0].lower(), stored.split(maxsplit=1)[0].lower()]
    assert decision.evidence["nicknames"] == [
        {"entity": "0", "spelling": stored, "given_names": given}
    ]


def test_an_alias_that_is_a_nickname_pair_links_too() -> None:
    pool = [EntityView.of("1", "R. Smith", "person", ["Robert Smith"])]
    decision = decide(
        make_mention("Bob Smith", "person"), pool, fuzzy=True, is_known_word=known, names=people()
    )
    assert [(x.entity.id, x.reason) for x in decision.possibly_same_as] == [("1", "nickname")]


@pytest.mark.parametrize(
    ("mention", "kind", "stored", "stored_kind"),
    [
        ("Bob Smith", "tool", "Robert Smith", "tool"),  # a kind that holds no people
        ("Bob Smith", "other", "Robert Smith", "person"),  # an unclassified mention
        ("Bob Smith", "person", "Robert Smyth", "person"),  # another surname
        ("Liz Smith", "person", "Bob Smith", "person"),  # no pair
    ],
)
def test_no_nickname_link_off_people_or_off_the_pair(
    mention: str, kind: str, stored: str, stored_kind: str
) -> None:
    decision = resolve(mention, kind, (stored, stored_kind))
    assert decision.decision == "new"
    assert "nickname" not in [x.reason for x in decision.possibly_same_as]
    assert "nicknames" not in decision.evidence


def test_without_the_list_there_is_no_nickname_link() -> None:
    decision = resolve("Bob Smith", "person", ("Robert Smith", "person"), names=people(None))
    assert decision.possibly_same_as == ()


def test_a_one_edit_nickname_pair_keeps_its_edit_reason_when_the_words_are_known() -> None:
    decision = resolve("Jon Snow", "person", ("John Snow", "person"))
    assert [x.reason for x in decision.possibly_same_as] == ["known_words"]


def test_a_one_edit_nickname_pair_never_converges_where_no_list_knows_a_word() -> None:
    listed = Nicknames.of([("johnathan", "jonathan")])
    names = people(listed)
    decision = resolve("Jonathan Smith", "person", ("Johnathan Smith", "person"), names=names)
    assert (decision.rule, [x.reason for x in decision.possibly_same_as]) == ("new", ["nickname"])
    assert decision.evidence["blocked"] == [
        {"entity": "0", "spelling": "Johnathan Smith", "reason": "nickname"}
    ]
    other = resolve("Jonathan Smith", "tool", ("Johnathan Smith", "tool"), names=names)
    assert other.rule == "typo"  # only between people
