"""Far look-alikes (`resolver.entity_rules.far_link`, `FarLookAlikes`): an entity none of whose
spellings is within one edit of the mention key only adds a review link, whose terms its keys
alone give; a decision that takes such entities as links decides what it decides on them whole."""

from collections.abc import Collection

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA

from castlegraph.resolver import entity_keys
from castlegraph.resolver.entity_rules import (
    NEAR,
    EntityView,
    FarLink,
    FarLookAlikes,
    ReviewLink,
    decide,
    far_link,
    make_mention,
)

ALPHABET = "abcé d1-"
spellings = st.text(alphabet=ALPHABET, min_size=1, max_size=12).map(lambda s: s.strip(" -") or "y")


def known(word: str) -> bool:
    return word in {"abba", "dada"}


@settings(max_examples=1000, deadline=None)
@given(mention=spellings, name=spellings, aliases=st.lists(spellings, max_size=2))
def test_a_far_link_is_the_link_the_entity_gets_whole(
    mention: str, name: str, aliases: list[str]
) -> None:
    wanted = make_mention(mention, "tool")
    entity = EntityView.of("e1", name, "tool", aliases)
    key = entity_keys.entity_key(mention)
    found = far_link(key, entity.id, entity.kind, (entity.key, *entity.alias_keys))
    if found == NEAR:
        distances = [OSA.distance(key, k) for k in (entity.key, *entity.alias_keys)]
        assert min(distances) <= 1
        return
    decision = decide(wanted, [entity], fuzzy=True, is_known_word=known)
    assert decision.decision == "new"
    expected = () if found is None else ((found.similarity, found.distance, found.reason),)
    links = tuple((x.similarity, x.distance, x.reason) for x in decision.possibly_same_as)
    assert links == expected
    assert decision.evidence["review_candidates"] == len(expected)


@settings(max_examples=300, deadline=None)
@given(
    mention=spellings,
    kind=st.sampled_from(["tool", "other"]),
    stored=st.lists(st.tuples(spellings, st.sampled_from(["tool", "person"])), max_size=14),
)
def test_a_decision_with_far_look_alikes_set_aside_is_the_one_taken_on_them_whole(
    mention: str, kind: str, stored: list[tuple[str, str]]
) -> None:
    """Stored names one or two edits from the mention, and some that are not, of two kinds:
    the far ones are handed as links, and built only if the decision keeps their link."""
    key = entity_keys.entity_key(mention)
    entities = [
        EntityView.of(f"e{n:02}", name, entity_kind) for n, (name, entity_kind) in enumerate(stored)
    ]
    entities += [  # look-alikes two edits away, more than the links kept
        EntityView.of(f"x{n:02}", f"{mention[:-2]}{n:02}", "tool") for n in range(7)
    ]
    whole, far = [], {}
    for entity in entities:
        link = far_link(key, entity.id, entity.kind, (entity.key, *entity.alias_keys))
        if link == NEAR:
            whole.append(entity)
        elif isinstance(link, FarLink):
            far[entity.id] = link
    by_id = {entity.id: entity for entity in entities}
    built: list[str] = []

    def views(ids: Collection[str]) -> dict[str, EntityView]:
        built.extend(ids)
        return {entity_id: by_id[entity_id] for entity_id in ids}

    wanted = make_mention(mention, kind)
    set_aside = FarLookAlikes(far, views) if far else None
    decided = decide(wanted, whole, fuzzy=True, is_known_word=known, key=key, far=set_aside)
    assert decided == decide(wanted, entities, fuzzy=True, is_known_word=known, key=key)
    linked = {link.entity.id for link in decided.possibly_same_as}
    assert set(built) == linked & far.keys()


def test_joined_links_rank_by_similarity_then_id_and_count_every_one() -> None:
    close = EntityView.of("b", "Katarinassons", "tool")
    links = [ReviewLink(close, 12 / 13, 1, "ambiguous_typo")]
    far = {
        entity_id: FarLink(entity_id, "tool", 10 / 12, 2, "two_edits")
        for entity_id in ("f", "a", "e", "d", "c", "g")
    }
    far["h"] = FarLink("h", "person", 11 / 12, 2, "two_edits")  # no tool mention is weighed with it
    views = FarLookAlikes(far, lambda ids: {i: EntityView.of(i, f"name {i}", "tool") for i in ids})
    kept, counted = views.joined(links, {"b"}, "tool")
    assert [link.entity.id for link in kept] == ["b", "a", "c", "d", "e"]
    assert [link.similarity for link in kept] == [12 / 13, *[10 / 12] * 4]
    assert counted == 7
