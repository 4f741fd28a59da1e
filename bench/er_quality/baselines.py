"""Baseline resolvers for `bench quality`, built from their published descriptions.

All three run in memory, in this process, over the same stream, and partition by kind as
castlegraph does; none has a database round trip, so their speed is a best case for them:
`length_band` (MemCastle), `graphrag_fuzzy` (neo4j-graphrag) and `graphiti_minhash`
(`bench.er_quality.baseline_graphiti`).
"""

import time
from collections import defaultdict
from collections.abc import Sequence

from rapidfuzz import fuzz, process, utils
from rapidfuzz.distance import OSA

from bench.er_quality.data import LabelledMention
from bench.er_quality.eval import Outcome
from castlegraph.resolver.entity_keys import entity_key

BAND = 2
BAND_MIN_SIMILARITY = 0.9
WRATIO_THRESHOLD = 0.8
ROWS_PER_BLOCK = 512

Bands = defaultdict[tuple[str, int], list[tuple[str, str]]]
"""(kind, key length) → (key, entity) of every entity stored: what the band scan reads."""


def band_match(bands: Bands, kind: str, key: str) -> str | None:
    """The band scan of one key: every entity of the kind within ±BAND of its length, the best
    one at `1 - OSA/L ≥ 0.9` (also timed alone by `bench mentions` as the peer's cost)."""
    scanned = [
        entry
        for length in range(len(key) - BAND, len(key) + BAND + 1)
        for entry in bands.get((kind, length), ())
    ]
    best = process.extractOne(
        key,
        [k for k, _ in scanned],
        scorer=OSA.normalized_similarity,
        score_cutoff=BAND_MIN_SIMILARITY,
    )
    return None if best is None else scanned[best[2]][1]


def wratio_match(name: str, names: Sequence[str]) -> int | None:
    """graphrag's pair test of one name against many (`default_process`, WRatio ≥ 0.8): the
    index of the best match, or None. `bench mentions` times it per mention as the peer's cost
    of resolving a name online against every stored name of its kind."""
    best = process.extractOne(
        name,
        names,
        scorer=fuzz.WRatio,
        processor=utils.default_process,
        score_cutoff=WRATIO_THRESHOLD * 100,
    )
    return None if best is None else int(best[2])


def length_band(stream: Sequence[LabelledMention]) -> tuple[list[Outcome], float]:
    """MemCastle's candidate scan (design §5.4): exact name, then equal key (the §5.1 key
    castlegraph uses), then fetch *every* entity of the kind whose key length is within ±2 and
    accept the best with `1 - OSA/L ≥ 0.9` (rapidfuzz `OSA.normalized_similarity`). Entities
    are compared by their canonical key; nothing is learnt from converged mentions."""
    by_name: dict[tuple[str, str], str] = {}
    by_key: dict[tuple[str, str], str] = {}
    bands: Bands = defaultdict(list)
    outcomes: list[Outcome] = []
    began = time.perf_counter()
    for n, mention in enumerate(stream):
        kind, name = mention.kind, mention.name.strip()
        key = entity_key(name)
        if (kind, name) in by_name:
            outcomes.append(Outcome(by_name[kind, name], "exact"))
            continue
        if (kind, key) in by_key:
            outcomes.append(Outcome(by_key[kind, key], "normalized"))
            continue
        found = band_match(bands, kind, key)
        if found is not None:
            outcomes.append(Outcome(found, "band"))
            continue
        entity = f"b{n:08d}"
        by_name[kind, name] = by_key[kind, key] = entity
        bands[kind, len(key)].append((key, entity))
        outcomes.append(Outcome(entity, "new"))
    return outcomes, time.perf_counter() - began


def _fuzzy_pairs(names: list[str]) -> list[tuple[int, int]]:
    """Every pair i < j with WRatio ≥ the threshold, in `itertools.combinations` order."""
    cutoff = WRATIO_THRESHOLD * 100
    pairs: list[tuple[int, int]] = []
    for start in range(0, len(names), ROWS_PER_BLOCK):
        block = process.cdist(
            names[start : start + ROWS_PER_BLOCK],
            names[start:],
            scorer=fuzz.WRatio,
            processor=utils.default_process,
            score_cutoff=cutoff,
            workers=1,
        )
        for row in range(block.shape[0]):
            i = start + row
            for col in block[row, row + 1 :].nonzero()[0]:
                pairs.append((i, i + 1 + int(col)))
    return pairs


def _consolidate(pairs: list[tuple[int, int]]) -> list[set[int]]:
    """neo4j-graphrag's `_consolidate_sets`: first intersecting set absorbs the pair."""
    sets: list[set[int]] = []
    for a, b in pairs:
        for merged in sets:
            if a in merged or b in merged:
                merged.update((a, b))
                break
        else:
            sets.append({a, b})
    return sets


def graphrag_fuzzy(stream: Sequence[LabelledMention]) -> tuple[list[Outcome], float]:
    """neo4j-graphrag's `FuzzyMatchResolver` after its exact-name resolver: a post-hoc pass over
    every pair of distinct names of a kind, `WRatio` on `default_process`ed text ≥ 0.8, then
    its greedy `_consolidate_sets` (a node already placed stays with the first set that took
    it: the library's sets can overlap, APOC merges the first). Being post-hoc, a mention
    "converged" when an earlier mention of the stream is in its merged set; the rule is `exact`
    when that includes the same name, `fuzzy` otherwise. `rapidfuzz.process.cdist` with one
    worker does the pairs, faster than the library's Python loop."""
    began = time.perf_counter()
    names_by_kind: defaultdict[str, dict[str, int]] = defaultdict(dict)
    for mention in stream:  # the exact-name resolver: one node per distinct (kind, name)
        nodes = names_by_kind[mention.kind]
        nodes.setdefault(mention.name.strip(), len(nodes))
    group_of: dict[tuple[str, str], str] = {}
    for kind, nodes in names_by_kind.items():
        names = list(nodes)
        for number, merged in enumerate(_consolidate(_fuzzy_pairs(names))):
            for i in sorted(merged):
                group_of.setdefault((kind, names[i]), f"{kind}:set{number}")
    outcomes: list[Outcome] = []
    seen_groups: set[str] = set()
    seen_names: set[tuple[str, str]] = set()
    for mention in stream:
        node = (mention.kind, mention.name.strip())
        group = group_of.get(node, f"{node[0]}:node:{node[1]}")
        rule = "exact" if node in seen_names else "fuzzy"
        if group not in seen_groups:
            rule = "new"
        seen_groups.add(group)
        seen_names.add(node)
        outcomes.append(Outcome(group, rule))
    return outcomes, time.perf_counter() - began
