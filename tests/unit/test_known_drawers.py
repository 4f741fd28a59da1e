"""Known drawers: how a drawer read whole is taken in, and the bound on what is kept."""

import sys

from castlegraph.graph.indexes.known_drawers import ENTRY_BYTES, KnownDrawer, KnownDrawers
from castlegraph.resolver.drawers import DrawerText


def test_a_drawer_read_whole_is_kept_by_its_normal_form() -> None:
    content = "Rotate the keys, before Friday!"
    drawer_id, known = KnownDrawer.read(["d1", content, 29, "ops", "certs", None, None])
    assert drawer_id == "d1"
    assert known == KnownDrawer(DrawerText.of(content), 29, "ops", "certs", None, None)
    assert known.text.normalized == "rotate the keys before friday"


def test_the_least_recently_used_drawers_go_first_once_the_bytes_are_spent() -> None:
    text = DrawerText.of("x" * 100)
    entry = KnownDrawer(text, 100, "w", "r", None, "manual")
    assert entry.bytes == sys.getsizeof(text.normalized) + ENTRY_BYTES
    known = KnownDrawers(max_bytes=3 * entry.bytes)
    for drawer_id in ("a", "b", "c"):
        known.put(drawer_id, entry)
    assert known.get("a") is entry  # now the most recently used
    known.put("d", entry)
    assert known.split(["a", "b", "c", "d"]) == (["b"], {"a": entry, "c": entry, "d": entry})
    known.clear()
    assert known.split(["a"]) == (["a"], {})


def test_dropped_drawers_give_their_bytes_back() -> None:
    entry = KnownDrawer(DrawerText.of("y" * 100), 100, "w", "r", None, None)
    known = KnownDrawers(max_bytes=2 * entry.bytes)
    known.put("a", entry)
    known.put("b", entry)
    known.drop(["a", "gone-already"])
    assert known.get("a") is None and known.cache_info().bytes == entry.bytes
    known.put("c", entry)  # fits beside b: a's bytes came back
    assert known.split(["b", "c"]) == ([], {"b": entry, "c": entry})
