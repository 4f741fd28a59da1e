"""A write unit's review read leaves the look-alikes that can only add review links unread
(`graph.entities.entity_candidates.Candidates`, `far`): its batches decide, link and count
exactly what they decide on everything the database's own index finds, on every backend."""

import itertools
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from castlegraph.api.service.nicknames import load_nicknames
from castlegraph.graph.entities.bulk import load_entities
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.graph.records import MentionResult
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.entity_rules import MAX_REVIEW_LINKS, NameGuard
from tests.store.test_entities import KNOWN_WORD, new_drawer
from tests.store.test_memory_index import built, edited, entity_rows, resolve

PEOPLE = NameGuard(frozenset[str]().__contains__, nicknames=load_nicknames())
KINDS = ["tool", "person", "other"]


def resolved_both_ways(
    store: Any, stored: list[tuple[str, str, list[str]]], mentions: list[tuple[str, str]]
) -> list[list[dict[str, Any]]]:
    """The batch resolved on the stored entities twice, on a fresh graph each time: through the
    in-memory index (far look-alikes set aside), then through the database's index; each
    answer with every entity id written as the entity's (kind, name). Ids are numbered the same
    way both times: links of equal similarity are ranked by id."""
    answers = []
    for in_memory in (True, False):
        numbers = itertools.count(1)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(uuid, "uuid4", lambda numbers=numbers: uuid.UUID(int=next(numbers)))
            answers.append(_resolved(store, stored, mentions, in_memory=in_memory))
    return answers


def _resolved(
    store: Any,
    stored: list[tuple[str, str, list[str]]],
    mentions: list[tuple[str, str]],
    *,
    in_memory: bool,
) -> list[dict[str, Any]]:
    store.wipe()
    load_entities(store, stored)
    index = built(store) if in_memory else None
    drawer = new_drawer(store, "note")
    inputs = [MentionInput(drawer, make_mention(name, kind)) for name, kind in mentions]
    results = resolve_mentions(
        store, inputs, fuzzy=True, known_word=KNOWN_WORD, names=PEOPLE, memory=index
    )
    return [_named(_labels(store), _plain(result)) for result in results]


def _plain(result: MentionResult) -> dict[str, Any]:
    return {
        "entity": result.entity.view.id,
        "created": result.created,
        "rule": result.rule,
        "confidence": result.confidence,
        "possibly_same_as": list(result.possibly_same_as),
        "evidence": result.evidence,
    }


def _labels(store: Any) -> dict[str, tuple[str, str]]:
    rows = store.run_text("MATCH (e:Entity) RETURN e.id AS id, e.kind AS kind, e.name AS name", {})
    return {row["id"]: (row["kind"], row["name"]) for row in rows}


def _named(labels: dict[str, tuple[str, str]], value: Any) -> Any:
    """`value` with each entity id in it replaced by its label (ids differ between graphs)."""
    if isinstance(value, str):
        return labels.get(value, value)
    if isinstance(value, dict):
        return {key: _named(labels, item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return tuple(_named(labels, item) for item in value)
    return value


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(stored=entity_rows, data=st.data())
def test_a_batch_decides_in_memory_what_it_decides_on_the_database(
    store: Any, stored: list[tuple[str, str, list[str]]], data: st.DataObject
) -> None:
    """Mentions are stored names (and aliases) with up to three edits, of any kind, several to
    a batch, so keys share probes, typos converge, a new entity of the batch meets a later
    mention, and review links, far hits and nothing at all all occur."""
    spellings = [spelling for name, _, aliases in stored for spelling in (name, *aliases)]
    mentions = [
        (edited(data, data.draw(st.sampled_from(spellings))), data.draw(st.sampled_from(KINDS)))
        for _ in range(data.draw(st.integers(1, 8)))
    ]
    in_memory, on_database = resolved_both_ways(store, stored, mentions)
    assert in_memory == on_database


def look_alikes(count: int) -> list[str]:
    """`count` names two substitutions from `katarinasson` (similarity 10/12: review links),
    and from one another."""
    letters = "bcdfghjlmpqvwxyz"
    return [f"k{letters[n]}tarinas{letters[-1 - n]}on" for n in range(count)]


def test_a_new_mention_links_the_closest_five_of_many_and_counts_the_rest(store: Any) -> None:
    """Nine far look-alikes and two one edit away (read whole: ambiguous typos, the closest);
    then a mention of any kind one edit from a far look-alike of the first: read whole for it,
    it gets the link a person's rare name gets (no typo converges onto one)."""
    stored = [(name, "person", []) for name in look_alikes(9)]
    stored += [("Katarinassons", "person", []), ("Katarinasso", "person", [])]
    batch = [("Katarinasson", "person"), ("Kbtarinaszxn", "other")]
    in_memory, on_database = resolved_both_ways(store, stored, batch)
    assert in_memory == on_database
    first, second = in_memory
    assert (first["rule"], first["evidence"]["review_candidates"]) == ("new", 11)
    assert len(first["possibly_same_as"]) == MAX_REVIEW_LINKS
    closest = (("person", "Katarinassons"), ("person", "Katarinasso"))
    assert first["possibly_same_as"][:2] == closest
    assert second["rule"] == "new"
    assert second["possibly_same_as"] == (("person", look_alikes(1)[0]),)
    assert [blocked["reason"] for blocked in second["evidence"]["blocked"]] == ["unknown_name"]


def test_the_entities_set_aside_are_built_only_when_linked(store: Any) -> None:
    """Entities handed out are kept as objects by the index (`EntityIndex.cached`): the ones a
    decision reads or links are, the far look-alikes past the cap are not."""
    names = look_alikes(8)
    load_entities(store, [(name, "tool", []) for name in names])
    index = built(store)
    [result] = resolve(store, index, new_drawer(store, "note"), "Katarinasson")
    assert result.evidence["review_candidates"] == len(names)
    ids = {name: entity_id for entity_id, (_, name) in _labels(store).items()}
    kept, _ = index.cached(ids[name] for name in names)
    assert set(kept) == set(result.possibly_same_as)
    assert len(kept) == MAX_REVIEW_LINKS
