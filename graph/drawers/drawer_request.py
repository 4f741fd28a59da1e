"""What a drawer write asks for (`NewDrawer`) and the duplicate policy it is decided under.

The bottom of the drawer write path: the candidate reads, the decision and the statement all
take a `NewDrawer`, so it lives apart from the use cases that build one (`palace`,
`drawer_batch`).
"""

from dataclasses import dataclass, field
from typing import Any

from castlegraph.graph.drawers.visibility import DIARY_KIND, visible


@dataclass(frozen=True, slots=True)
class DedupPolicy:
    enabled: bool = True
    near_threshold: float = 0.9


@dataclass(frozen=True, slots=True)
class NewDrawer:
    wing: str
    room: str
    content: str
    name: str | None = None
    kind: str = "manual"
    agent: str | None = None
    source_uri: str | None = None
    drawer_id: str | None = None
    compare_same_agent_only: bool = False
    origin: dict[str, Any] = field(default_factory=dict)
    viewer: str | None = None
    """The agent whose token asked for the write: it is compared only with drawers that agent
    may see (`graph.drawers.visibility`), so no answer or link can name another agent's diary
    entry."""

    @property
    def compared_agent(self) -> str | None:
        """The agent whose diary entries alone the write compares with, if only its own: a
        diary entry's identity is never another drawer naming that agent (design §8.1)."""
        return self.agent if self.compare_same_agent_only else None

    def compares_with(self, wing: str, room: str, agent: str | None, kind: str | None) -> bool:
        """Whether the write may compare with a drawer of this room, agent and kind: of its own
        room, one of its agent's diary entries where it compares with its own only, and visible
        to its viewer. The candidate statements filter by this rule; a batch applies it to
        drawers read without it (`graph.drawers.drawer_batch`)."""
        return (
            wing == self.wing
            and room == self.room
            and (self.compared_agent is None or (agent, kind) == (self.compared_agent, DIARY_KIND))
            and visible(kind or "", agent, self.viewer)
        )
