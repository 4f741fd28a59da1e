"""The graph the export tests export, in one place: `tests/store/test_export.py` reads it back
through the graph layer, `tests/e2e/test_export_command.py` writes it out with the command.

`SPECIAL` is a drawer's content with every character a Cypher or GraphML writer must escape.
"""

from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.drawers import palace
from castlegraph.graph.drawers.drawer_request import DedupPolicy, NewDrawer
from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.resolver.entity_model import make_mention

GRAPHML_NS = {"g": "http://graphml.graphdrawing.org/xmlns"}
POLICY = DedupPolicy(enabled=True, near_threshold=0.9)
WORDS = {"maria", "mario", "lopez"}
SPECIAL = 'It\'s a "test" \\ C:\\tmp\nsecond line\ttab; café 😀 {x: 1} `tick` // not a comment'
NEAR = "Staging listens on port 8080 behind the load balancer"


def seed(store: GraphStore) -> None:
    """infra/ops: a drawer, its near copy, an odd one; infra/dev: one more. Ada is mentioned in
    three of them; Mario Lopez (new, a review link to Maria Lopez) in the first."""

    def write(room: str, content: str, name: str | None = None) -> str:
        new = NewDrawer(wing="infra", room=room, content=content, name=name)
        return palace.write_drawer(store, new, POLICY).drawer.id

    first = write("ops", NEAR)
    near = write("ops", NEAR.replace("8080", "8081"))
    odd = write("ops", SPECIAL, name="odd one")
    dev = write("dev", "Ada Lovelace reviewed the staging plan")
    seen = [
        (first, "Ada Lovelace"),
        (near, "ADA LOVELACE"),
        (dev, "Ada Lovelace"),
        (odd, "Maria Lopez"),
        (first, "Mario Lopez"),
    ]
    inputs = [
        MentionInput(d, make_mention(n, "person"), extractor="test", origin={"chunk": 3})
        for d, n in seen
    ]
    resolve_mentions(store, inputs, fuzzy=True, known_word=WORDS.__contains__)
