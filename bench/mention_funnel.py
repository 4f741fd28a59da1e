"""How a mention batch narrows, in counts (`bench.profile_mentions --funnel`): the probe keys its
lookups send to the in-memory entity index, the entities they find and those the review read sets
aside unread, the mentions decided new, the review candidates those meet (and how they spread)
and the links they keep. Not times: what a batch's time is spent on, beside the profile.
"""

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

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

    @contextmanager
    def counting(self) -> Iterator[None]:
        """The entity index's lookups and the use case's batches counted while the block runs,
        then put back as they were."""
        lookup, resolved = EntityIndex.lookup_spelled, Mentions._resolved
        set_aside = Candidates._set_aside

        def counted_lookup(index: EntityIndex, needs: Any, *args: Any, **kwargs: Any) -> Any:
            hits, sent = lookup(index, needs, *args, **kwargs)
            self.looked_up(needs, len(hits))
            return hits, sent

        def counted_aside(candidates: Candidates, *args: Any, **kwargs: Any) -> Any:
            aside = set_aside(candidates, *args, **kwargs)
            self.aside += len(aside)
            return aside

        def counted_batch(mentions: Mentions, *args: Any, **kwargs: Any) -> Any:
            results = resolved(mentions, *args, **kwargs)
            self.saw(results)
            return results

        EntityIndex.lookup_spelled = counted_lookup  # type: ignore[method-assign]
        Mentions._resolved = counted_batch  # type: ignore[method-assign]
        Candidates._set_aside = counted_aside  # type: ignore[method-assign]
        try:
            yield
        finally:
            EntityIndex.lookup_spelled = lookup  # type: ignore[method-assign]
            Mentions._resolved = resolved  # type: ignore[method-assign]
            Candidates._set_aside = set_aside  # type: ignore[method-assign]

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
