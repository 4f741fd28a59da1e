"""`BatchIndex` keeps the batch's own entities without a container per key (design §5.4)."""

import gc
from collections.abc import Callable

from castlegraph.resolver.entity_model import EntityView
from castlegraph.resolver.entity_search_keys import BatchIndex


def _objects_added(action: Callable[[], object]) -> int:
    """How many objects for the cyclic collector to track `action` left behind."""
    gc.collect()
    gc.disable()
    try:
        before = len(gc.get_objects())
        action()
        return len(gc.get_objects()) - before
    finally:
        gc.enable()


def test_an_entity_put_under_fresh_keys_adds_no_container_per_key() -> None:
    """A batch's new entities store ~25,000 keys: a dict and a list per key were as many
    objects for each young collection to walk."""
    index = BatchIndex()
    keys = [f"key{n}" for n in range(2_000)]
    view = EntityView("e1", "name", "tool", "key0")
    assert _objects_added(lambda: index.put_local(view, keys)) < 100
    assert [v.id for v in index.candidates(["key7", "nothing"], "tool")] == ["e1"]


def test_a_key_of_two_entities_answers_each_by_kind() -> None:
    index = BatchIndex()
    index.put_local(EntityView("e1", "ab", "tool", "ab"), ["ab", "a", "b"])
    index.put_local(EntityView("e2", "ab", "person", "ab"), ["ab", "a"])
    respelled = EntityView("e1", "ab", "tool", "ab", ("abc",), ("abc",))
    index.put_local(respelled, ["abc", "ab", "a"])  # keys it stores already come again
    assert [v.id for v in index.candidates(["a"], "tool")] == ["e1"]
    assert [v.id for v in index.candidates(["a"], "person")] == ["e2"]
    assert [v.id for v in index.candidates(["a", "abc"], "other")] == ["e1", "e2"]
    assert [v.id for v in index.candidates(["b"])] == ["e1"]
    assert index.get("e1") == respelled
    assert index.touched("a", "person")
    assert index.touched("b", "tool")
    assert not index.touched("b", "person")
    assert index.touched("b", "other")
    assert not index.touched("c")


def test_a_stored_entity_found_under_fresh_probes_adds_no_container_per_probe() -> None:
    index = BatchIndex()
    probes = [f"probe{n}" for n in range(2_000)]
    view = EntityView("s1", "name", "tool", "probe0")
    assert _objects_added(lambda: index.add_found(view, probes)) < 100
    assert [v.id for v in index.candidates(["probe9"], "tool")] == ["s1"]


def test_stored_entities_sharing_a_probe_answer_each_by_kind() -> None:
    index = BatchIndex()
    assert index.add_found(EntityView("s1", "ab", "tool", "ab"), ["ab", "a"])
    assert index.add_found(EntityView("s2", "ab", "person", "ab"), ["a"])
    assert not index.add_found(EntityView("s1", "ab", "tool", "ab"), ["a", "b"])
    index.put_local(EntityView("l1", "a", "tool", "a"), ["a"])
    assert [v.id for v in index.candidates(["a"], "tool")] == ["l1", "s1"]
    assert [v.id for v in index.candidates(["a"], "person")] == ["s2"]
    assert [v.id for v in index.candidates(["a", "b"])] == ["l1", "s1", "s2"]
    assert [v.id for v in index.candidates(["b"], "person")] == []
    assert not index.touched("b")
