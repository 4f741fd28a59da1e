"""Every spelling a drawer used for an entity, kept on its one MENTIONS edge (design §5.3).

A drawer has one MENTIONS edge per entity (its first mention's observation); a later mention in
the same drawer with another spelling adds no edge, its spelling joins the edge's `spellings`,
so every observation's spelling stays reachable from the drawer.
"""

from collections.abc import Mapping
from typing import Any

MAX_SPELLINGS = 32

Pair = tuple[str, str]
"""(drawer id, entity id): one MENTIONS edge."""


def edge_spellings(props: Mapping[str, Any]) -> list[str]:
    """The spellings of a stored edge, from its properties."""
    return list(props.get("spellings") or [props["name"]])


class SpellingsSeen:
    """The spellings of the edges a batch touches: the stored ones (`existing`), then each
    mention's in batch order; `changed` names the stored edges that gained one.

    Distinct spellings, first seen first, at most `MAX_SPELLINGS`: the list is read whole with the
    edge, so a drawer repeating a name in ever new typos cannot grow it without bound. An edge with
    a single spelling stores none (most do); an edge written before `spellings` existed reads the
    same way: its spellings are its own `name`.
    """

    def __init__(self, existing: Mapping[Pair, list[str]]) -> None:
        self._seen = {pair: list(found) for pair, found in existing.items()}
        self.changed: set[Pair] = set()

    def saw(self, pair: Pair, spelling: str) -> None:
        found = self._seen.setdefault(pair, [])
        if spelling not in found and len(found) < MAX_SPELLINGS:
            found.append(spelling)
            self.changed.add(pair)

    def of(self, pair: Pair) -> list[str]:
        return self._seen[pair]
