"""How a mention batch narrows, in counts (`bench.profile_mentions --funnel`): the probe keys its
lookups send to the in-memory entity index, the entities they find and those the review read sets
aside unread, the mentions decided new, the review candidates those meet (and how they spread)
and the links they keep. Not times: what a batch's time is spent on, beside the profile.
"""

from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from typing import Any

from bench.steps import replaced
from castlegraph.api.usecases.mentions import Mentions
from castlegraph.graph.entities.entity_candidates import Candidates
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import MentionResult


@dataclass
class Funnel:
    """Counts over the batches seen while `counting`."""

    batches: int = 0
    probes: int = 0
    found: int = 0
    aside: int = 0
    """Entities found that the review reads set aside unread (far look-alikes)."""
    mentions: int = 0
    links: int = 0
    met: list[int] = field(default_factory=list)
    """The review candidates each new mention met, in the order seen."""

    @property
    def new(self) -> int:
        """Mentions decided new."""
        return len(self.met)

    @property
    def candidates(self) -> int:
        """Review candidates the new mentions met."""
        return sum(self.met)

    def looked_up(self, needs: Mapping[str, Collection[str]], found: int) -> None:
        """One lookup: the probes each mention key sent (a probe two keys share counts for
        each, as the lookup weighs it for each) and the entities it found."""
        self.probes += sum(map(len, needs.values()))
        self.found += found

    def saw(self, results: Sequence[MentionResult]) -> None:
        """One batch's results."""
        self.batches += 1
        self.mentions += len(results)
        for result in results:
            if result.rule == "new":
                self.met.append(int(result.evidence.get("review_candidates", 0)))
                self.links += len(result.possibly_same_as)

    def counting(self) -> AbstractContextManager[None]:
        """The entity index's lookups, the review reads' set-asides and the use case's batches
        counted while the block runs, then put back as they were."""

        def counted_lookup(lookup: Callable[..., Any]) -> Callable[..., Any]:
            def counted(index: EntityIndex, needs: Any, *args: Any, **kwargs: Any) -> Any:
                hits, sent = lookup(index, needs, *args, **kwargs)
                self.looked_up(needs, len(hits))
                return hits, sent

            return counted

        def counted_aside(set_aside: Callable[..., Any]) -> Callable[..., Any]:
            def counted(candidates: Candidates, *args: Any, **kwargs: Any) -> Any:
                aside = set_aside(candidates, *args, **kwargs)
                self.aside += len(aside)
                return aside

            return counted

        def counted_batch(resolved: Callable[..., Any]) -> Callable[..., Any]:
            def counted(mentions: Mentions, *args: Any, **kwargs: Any) -> Any:
                results = resolved(mentions, *args, **kwargs)
                self.saw(results)
                return results

            return counted

        return replaced(
            [
                (EntityIndex, "lookup_spelled", counted_lookup),
                (Candidates, "_set_aside", counted_aside),
                (Mentions, "_resolved", counted_batch),
            ]
        )

    def spread(self) -> dict[str, int]:
        """How the review candidates spread over the new mentions: the median, p90, p99 and
        most that one met."""
        met = sorted(self.met)
        if not met:
            return {}
        last = len(met) - 1
        return {
            "median": met[last // 2],
            "p90": met[min(last, len(met) * 90 // 100)],
            "p99": met[min(last, len(met) * 99 // 100)],
            "most": met[last],
        }

    def print(self) -> None:
        """Each count per batch, then the spread of the review candidates."""
        per = max(self.batches, 1)
        for name, label in LABELS.items():
            print(f"  {label:40} {getattr(self, name) / per:10,.0f} per batch")
        spread = ", ".join(f"{name} {value:,}" for name, value in self.spread().items())
        print(f"  review candidates a new mention met: {spread or 'none new'}")


LABELS = {
    "mentions": "mentions",
    "probes": "probe keys looked up",
    "found": "entities the lookups found",
    "aside": "of which set aside unread",
    "new": "mentions decided new",
    "candidates": "review candidates they met",
    "links": "review links they kept",
}
