"""The peers' approaches timed on the mentions benchmark's own names (design §10 ratios).

`bench quality` compares resolvers on a labelled stream; this asks what each approach costs per
mention as the stored entities grow. For each size the entities are indexed the way each peer
keeps them (untimed), then one sample of mentions from the benchmark's mix is resolved one at a
time, in this process with no database round trip (a best case for them).
"""

import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.er_quality.baselines import Bands, band_match, wratio_match
from bench.names import Named
from castlegraph.resolver.entity_keys import entity_key

SAMPLE = 200
"""Mentions each peer resolves per size: enough for a rate, and the WRatio scan at 1 M entities
stays under a minute."""


@dataclass(frozen=True, slots=True)
class PeerRates:
    """Mentions per second of each peer at one size, on the same sample."""

    size: int
    mentions: int
    length_band_per_s: float
    wratio_per_s: float

    def as_json(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "mentions": self.mentions,
            "length_band_per_s": round(self.length_band_per_s, 1),
            "wratio_per_s": round(self.wratio_per_s, 1),
        }


def _length_band(stored: Sequence[Named], sample: Sequence[tuple[str, str]]) -> float:
    """MemCastle's length-band scan (`band_match`): exact name, equal key, else every entity of
    the kind whose key length is within ±2 is scored; the scan grows with the entities."""
    by_name = {(n.kind, n.name) for n in stored}
    by_key: set[tuple[str, str]] = set()
    bands: Bands = defaultdict(list)
    for number, named in enumerate(stored):
        key = entity_key(named.name)
        by_key.add((named.kind, key))
        bands[named.kind, len(key)].append((key, f"e{number}"))
    began = time.perf_counter()
    for kind, name in sample:
        if (kind, name) in by_name:
            continue
        key = entity_key(name)
        if (kind, key) not in by_key:
            band_match(bands, kind, key)
    return len(sample) / (time.perf_counter() - began)


def _wratio(stored: Sequence[Named], sample: Sequence[tuple[str, str]]) -> float:
    """neo4j-graphrag's pairwise WRatio (`wratio_match`): its fuzzy resolver compares every
    pair of names; online, one new name is compared with every stored name of its kind."""
    names: defaultdict[str, list[str]] = defaultdict(list)
    for named in stored:
        names[named.kind].append(named.name)
    began = time.perf_counter()
    for kind, name in sample:
        wratio_match(name, names[kind])
    return len(sample) / (time.perf_counter() - began)


def time_peers(
    size: int, stored: Sequence[Named], mentions: Iterable[Mapping[str, Any]]
) -> PeerRates:
    """Both peers on the first `SAMPLE` of `mentions` (bodies of `POST /api/mentions` items)."""
    sample = [(m["kind"], m["name"]) for m in mentions][:SAMPLE]
    return PeerRates(size, len(sample), _length_band(stored, sample), _wratio(stored, sample))
