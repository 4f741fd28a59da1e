"""Read a subgraph for export: an entity's neighbourhood, or a room (`castlegraph export`).

Nodes carry their stored properties except the derived lookup keys and `embedding` (`EXCLUDED`:
index data, not knowledge; the target derives its own, design §9). An edge whose far end lies
outside the subgraph brings that node along, so every exported edge has both ends. One read
unit per subgraph; the caller formats it (`api.export.graphml`, `api.export.cypher`).
"""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from castlegraph.graph.backends.store import GraphStore, Tx
from castlegraph.graph.entities.entity_curation import find_entities
from castlegraph.graph.errors import NothingToExport
from castlegraph.resolver.entity_keys import normalize_kind

EXCLUDED = frozenset({"embedding", "terms", "terms_text", "dkeys", "dkeys_text"})
KEYS = {"Wing": ("name",), "Room": ("wing", "name"), "Drawer": ("id",), "Entity": ("id",)}
"""The properties that identify a node of each label (its uniqueness constraint)."""
LABEL_ORDER = tuple(KEYS)
BATCH = 1000
PAGE = 1000

NodeRef = tuple[str, tuple[Any, ...]]


@dataclass(frozen=True, slots=True)
class Edge:
    type: str
    source: NodeRef
    target: NodeRef
    props: dict[str, Any]


@dataclass
class Subgraph:
    nodes: dict[NodeRef, dict[str, Any]] = field(default_factory=dict)
    edges: dict[tuple[str, NodeRef, NodeRef], Edge] = field(default_factory=dict)

    def node(self, label: str, props: dict[str, Any]) -> NodeRef:
        clean = {k: v for k, v in props.items() if v is not None and k not in EXCLUDED}
        ref = (label, tuple(clean[key] for key in KEYS[label]))
        self.nodes.setdefault(ref, clean)
        return ref

    def edge(self, type_: str, source: NodeRef, target: NodeRef, props: dict[str, Any]) -> None:
        clean = {k: v for k, v in props.items() if v is not None}
        self.edges.setdefault((type_, source, target), Edge(type_, source, target, clean))

    def sorted_nodes(self) -> list[tuple[NodeRef, dict[str, Any]]]:
        return sorted(self.nodes.items(), key=lambda item: _order(item[0]))

    def sorted_edges(self) -> list[Edge]:
        return sorted(
            self.edges.values(), key=lambda e: (e.type, _order(e.source), _order(e.target))
        )


def _order(ref: NodeRef) -> tuple[int, tuple[str, ...]]:
    return LABEL_ORDER.index(ref[0]), tuple(str(part) for part in ref[1])


def _batches(ids: Sequence[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), BATCH):
        yield list(ids[start : start + BATCH])


def entity_subgraph(store: GraphStore, name: str, kind: str | None = None) -> Subgraph:
    """The entities named NAME (name or alias, by key), the drawers that mention them with those
    drawers' SIMILAR_TO links, and the entities' POSSIBLY_SAME_AS neighbours."""
    wanted = normalize_kind(kind) if kind is not None else None
    ids = [entity.view.id for entity in find_entities(store, name, wanted)]
    if not ids:
        shown = f" of kind {wanted!r}" if wanted else ""
        details = {"name": name, **({"kind": wanted} if wanted else {})}
        raise NothingToExport(f"no entity named {name!r}{shown}", details)

    def work(tx: Tx) -> Subgraph:
        graph = Subgraph()
        drawers: list[str] = []
        for batch in _batches(ids):
            for row in tx.run("export_entities", ids=batch):
                graph.node("Entity", row["entity"])
        for entity_id in ids:
            here = ("Entity", (entity_id,))
            for row in tx.run("export_entity_drawers", id=entity_id):
                drawer = graph.node("Drawer", row["drawer"])
                drawers.append(drawer[1][0])
                graph.edge("MENTIONS", drawer, here, row["mention"])
            for row in tx.run("export_entity_links", id=entity_id):
                other = graph.node("Entity", row["entity"])
                source, target = (here, other) if row["outgoing"] else (other, here)
                graph.edge("POSSIBLY_SAME_AS", source, target, row["link"])
        _similar(tx, graph, sorted(set(drawers)))
        return graph

    return store.read(work, use_case="export_entity")


def room_subgraph(store: GraphStore, wing: str, room: str) -> Subgraph:
    """The wing, the room, its current drawers, their SIMILAR_TO links and MENTIONS, and the
    entities they mention."""

    def work(tx: Tx) -> Subgraph:
        rows = tx.run("export_room", wing=wing, room=room)
        if not rows:
            raise NothingToExport(
                f"no room {room!r} in wing {wing!r}", {"wing": wing, "room": room}
            )
        graph = Subgraph()
        wing_ref = graph.node("Wing", rows[0]["wing"])
        room_ref = graph.node("Room", rows[0]["room"])
        graph.edge("HAS_ROOM", wing_ref, room_ref, {})
        drawers = _current_drawers(tx, wing, room)
        for props in drawers:
            graph.edge("HAS_DRAWER", room_ref, graph.node("Drawer", props), {})
        ids = [props["id"] for props in drawers]
        for batch in _batches(ids):
            for row in tx.run("export_drawer_mentions", ids=batch):
                entity = graph.node("Entity", row["entity"])
                graph.edge("MENTIONS", ("Drawer", (row["drawer"],)), entity, row["mention"])
        _similar(tx, graph, ids)
        return graph

    return store.read(work, use_case="export_room")


def _current_drawers(tx: Tx, wing: str, room: str) -> list[dict[str, Any]]:
    """Every current drawer of the room, oldest first, read page by page."""
    found: list[dict[str, Any]] = []
    after: tuple[str | None, str | None] = (None, None)
    while True:
        rows = tx.run(
            "room_drawers_page",
            wing=wing,
            room=room,
            after_created=after[0],
            after_id=after[1],
            limit=PAGE,
            viewer=None,  # the CLI's export is the local user's: every drawer
        )
        found.extend(row["drawer"] for row in rows)
        if len(rows) < PAGE:
            return found
        after = (rows[-1]["drawer"]["created_at"], rows[-1]["drawer"]["id"])


def _similar(tx: Tx, graph: Subgraph, drawer_ids: list[str]) -> None:
    """SIMILAR_TO edges of the drawers (newer -> older, as stored), bringing the far ends."""
    for batch in _batches(drawer_ids):
        for row in tx.run("export_drawer_similar", ids=batch):
            here = ("Drawer", (row["drawer"],))
            other = graph.node("Drawer", row["other"])
            source, target = (here, other) if row["outgoing"] else (other, here)
            graph.edge("SIMILAR_TO", source, target, row["link"])
