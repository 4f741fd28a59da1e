"""Graphiti's deterministic entity resolver as a `bench quality` baseline.

Read from graphiti-core's `utils/maintenance/dedup_helpers.py` (its published constants): an
exact form, then MinHash LSH over character trigrams with a true-Jaccard check; names too short
or too plain to decide are handed to an LLM (`deferred`). The steps: `graphiti_minhash`.
"""

import math
import re
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from functools import lru_cache
from hashlib import blake2b

from bench.er_quality.data import LabelledMention
from bench.er_quality.eval import Outcome

ENTROPY_THRESHOLD = 1.5
MIN_NAME_LENGTH = 6
MIN_TOKEN_COUNT = 2
JACCARD_THRESHOLD = 0.9
PERMUTATIONS = 32
BAND_SIZE = 4


def _exact_form(name: str) -> str:
    return re.sub(r"\s+", " ", name.lower()).strip()


def _fuzzy_form(name: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^a-z0-9' ]", " ", _exact_form(name)).strip())


def _entropy(text: str) -> float:
    counts = Counter(text.replace(" ", ""))
    total = sum(counts.values())
    return -sum(c / total * math.log2(c / total) for c in counts.values()) if total else 0.0


def _decidable(fuzzy: str) -> bool:
    if len(fuzzy) < MIN_NAME_LENGTH and len(fuzzy.split()) < MIN_TOKEN_COUNT:
        return False
    return _entropy(fuzzy) >= ENTROPY_THRESHOLD


@lru_cache(maxsize=200_000)
def _shingles(fuzzy: str) -> frozenset[str]:
    cleaned = fuzzy.replace(" ", "")
    if len(cleaned) < 2:
        return frozenset({cleaned} if cleaned else ())
    return frozenset(cleaned[i : i + 3] for i in range(len(cleaned) - 2))


def _hash(shingle: str, seed: int) -> int:
    return int.from_bytes(blake2b(f"{seed}:{shingle}".encode(), digest_size=8).digest(), "big")


@lru_cache(maxsize=200_000)
def _bands(shingles: frozenset[str]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    if not shingles:
        return ()
    signature = [min(_hash(s, seed) for s in shingles) for seed in range(PERMUTATIONS)]
    return tuple(
        (number, tuple(signature[start : start + BAND_SIZE]))
        for number, start in enumerate(range(0, PERMUTATIONS, BAND_SIZE))
    )


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    union = len(a | b)
    return len(a & b) / union if union else 0.0


def graphiti_minhash(stream: Sequence[LabelledMention]) -> tuple[list[Outcome], float]:
    """Graphiti's steps, per kind as castlegraph partitions:

    1. names are lower-cased with whitespace collapsed (exact form); the fuzzy form keeps only
       `[a-z0-9' ]` (so accented letters become separators) and shingles it into character
       trigrams with the spaces removed;
    2. a name of fewer than 6 characters and 1 token, or whose character entropy is < 1.5 bits,
       is not decided but handed to the LLM (`deferred`; scored as a new entity, since this
       bench runs no LLM): this check comes first, before the exact lookup, as in graphiti;
    3. exactly one existing entity with the same exact form → `exact`;
    4. MinHash of the trigrams (32 permutations, blake2b seeded by the permutation number), LSH
       in bands of 4; candidates sharing a band are scored by their true trigram Jaccard, and
       the best at ≥ 0.9 wins → `minhash`;
    5. anything else is a new entity, added to the indexes.

    Graphiti finds the candidate by a linear scan of the existing nodes; a dict lookup stands in
    for it here (the result is the same).
    """
    _shingles.cache_clear()
    _bands.cache_clear()
    exact: defaultdict[tuple[str, str], list[str]] = defaultdict(list)
    shingles_of: dict[str, frozenset[str]] = {}
    buckets: defaultdict[tuple[str, int, tuple[int, ...]], list[str]] = defaultdict(list)
    outcomes: list[Outcome] = []
    began = time.perf_counter()
    for n, mention in enumerate(stream):
        entity = f"g{n:08d}"
        exact_form, fuzzy = _exact_form(mention.name), _fuzzy_form(mention.name)
        shingles = _shingles(fuzzy)
        if not _decidable(fuzzy):
            rule = "deferred"
        elif len(exact[mention.kind, exact_form]) == 1:
            outcomes.append(Outcome(exact[mention.kind, exact_form][0], "exact"))
            continue
        else:
            candidates = {
                c for band in _bands(shingles) for c in buckets.get((mention.kind, *band), ())
            }
            scored = sorted((-_jaccard(shingles, shingles_of[c]), c) for c in candidates)
            if scored and -scored[0][0] >= JACCARD_THRESHOLD:
                outcomes.append(Outcome(scored[0][1], "minhash"))
                continue
            rule = "new"
        exact[mention.kind, exact_form].append(entity)
        shingles_of[entity] = shingles
        for band in _bands(shingles):
            buckets[(mention.kind, *band)].append(entity)
        outcomes.append(Outcome(entity, rule))
    return outcomes, time.perf_counter() - began
