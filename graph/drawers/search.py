"""Finding drawers by their words: a room's current drawers holding every word asked for.

A search reads one room through its scope index and compares in the database; what is alike in
meaning rather than in words is the embeddings' job (design §6).
"""

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.records import Drawer


def search_room(
    store: GraphStore,
    wing: str,
    room: str,
    words: list[str],
    limit: int,
    *,
    viewer: str | None = None,
) -> tuple[list[Drawer], bool]:
    """Up to `limit` current drawers of the room whose content holds every word (compared in
    lower case), oldest first; whether more matched. Another agent's diary entries are left
    out for an agent's `viewer`."""
    rows = store.read(
        lambda tx: tx.run(
            "search_room_drawers",
            wing=wing,
            room=room,
            words=[word.lower() for word in words],
            limit=limit + 1,
            viewer=viewer,
        ),
        use_case="search_room",
    )
    found = [Drawer.from_props(row["drawer"]) for row in rows]
    return found[:limit], len(found) > limit
