"""Entity keys (design §5.1), kinds (§5.2) and the deletion keys that index typo search (§5.4).

What the graph layer stores and probes per spelling: its key, its deletion neighbourhood, the
deeper probe for two-edit review links, and the word-sorted and accent-folded forms that index
review candidates only. An index hit is only a candidate: the rules verify the true OSA
distance, so nothing is decided from the index itself.
"""

from __future__ import annotations

import unicodedata

from castlegraph.resolver.bounded_cache import MIB, ByteLRU
from castlegraph.resolver.errors import EmptyLabel

# Dropped without separating: ``Node.js`` = ``NodeJS``, ``O'Brien`` = ``OBrien``.
_DROPPED = frozenset(".'\u2019")
# Kept although not alphanumeric: ``C++`` ≠ ``C#`` ≠ ``C``.
_KEPT_SYMBOLS = frozenset("+#")
# Shortest key that can take part in a two-edit review pair (see `review_probe_keys`);
# a unit test checks it against the thresholds of ``resolver.entity_rules``.
TWO_EDIT_PROBE_MIN_LEN = 6


def _lower(text: str) -> str:
    """Lower-case per character (no final-sigma context), as design §11 requires."""
    return "".join(ch.lower() for ch in text)


def entity_key(name: str) -> str:
    """Return the entity key of ``name`` (design §5.1).

    A combining mark (``M*``) after a kept character stays with it: NFC leaves marks without a
    precomposed form in place (Devanagari vowel signs, ``n̈``), and treating them as separators
    would split words and silently fold accents.
    """
    text = unicodedata.normalize("NFC", name)
    out: list[str] = []
    separated = False  # a separator was seen since the last kept character
    for ch in text:
        if ch in _DROPPED:
            continue
        if ch.isalnum() or ch in _KEPT_SYMBOLS:
            if separated and out:
                out.append(" ")
            separated = False
            out.append(ch.lower())
        elif unicodedata.category(ch).startswith("M") and out and not separated:
            out.append(ch)  # a combining mark stays with its base character
        else:
            separated = True
    return "".join(out) if out else _lower(text.strip())


remembered_entity_key: ByteLRU[str, str] = ByteLRU(entity_key, 16 * MIB)
"""`entity_key`, remembered: a batch repeats its names, and its resolution asks for a mention's
key at every step (its fetches, each decision); deriving it anew each time was a tenth of a
batch's decisions."""


def normalize_kind(kind: str) -> str:
    """Trim and lower-case a kind; a blank kind raises :class:`EmptyLabel`."""
    normal = _lower(kind.strip())
    if not normal:
        raise EmptyLabel("kind")
    return normal


def folded_key(key: str) -> str:
    """``key`` without accents: NFD, combining marks (``M*``) dropped, NFC again.

    An index key only: the graph layer stores it beside a spelling's deletion keys and adds the
    mention's to its two-edit probe, since a name written with and without accents
    (``Jönköping``/``Jonkoping``) is two substitutions that the depth-1 rows miss. Keys
    themselves never fold accents (design §5.1); the rules verify the true distance.
    """
    if key.isascii():
        return key
    decomposed = unicodedata.normalize("NFD", key)
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return unicodedata.normalize("NFC", bare)


def sorted_words_key(key: str) -> str:
    """The key's words in sorted order: ``lovelace ada`` and ``ada lovelace`` share it.

    Word order alone never proves identity, so it only ever indexes review candidates (the
    ``word_order`` link of design §5.3); the graph layer stores the deletion keys of this form
    for a spelling whose words are not already sorted.
    """
    words = key.split(" ")
    return " ".join(sorted(words)) if len(words) > 1 else key


def deletion_neighbourhood(key: str, depth: int) -> list[str]:
    """``key`` and every string obtained by deleting up to ``depth`` code points; sorted, unique."""
    seen = {key}
    frontier = {key}
    for _ in range(depth):
        frontier = {s[:i] + s[i + 1 :] for s in frontier for i in range(len(s))} - seen
        seen |= frontier
    return sorted(seen)


def deletion_keys(key: str) -> list[str]:
    """The depth-1 deletion neighbourhood stored per spelling and probed for one-edit pairs.

    Two keys within one OSA edit always share one (design §5.4). The converse does not hold: a
    shared key only means a Levenshtein distance ≤ 2 (``abcx`` / ``bcxy``), so every hit is
    verified. No rule uses a pair whose shorter key has fewer than 4 code points, so the graph
    layer may skip the rows and the probe for keys that short.
    """
    return deletion_neighbourhood(key, 1)


def review_probe_keys(key: str) -> list[str]:
    """Probe keys for one- and two-edit candidates against the stored depth-1 rows.

    Depth 2 when a two-edit review link is possible, depth 1 otherwise; a superset of
    :func:`deletion_keys`. A link needs ``1 - 2/L ≥ 0.75``, so a longer key of ≥ 8 and both of
    ≥ ``TWO_EDIT_PROBE_MIN_LEN``.

    A probe of depth p meets a row of depth s iff ``LCS(a, b) ≥ max(|a| - p, |b| - s)``. With
    p = 2 and s = 1 that finds, besides every one-edit pair, stored keys *shorter* by 1 or 2
    within two edits and equal-length pairs of one deletion plus one insertion
    (``abcx`` / ``bcxy``). It misses stored keys longer than the mention at two edits and
    equal-length pairs of two substitutions or transpositions (``Katarina``/``Katerino``):
    ``resolver.entity_segments`` closes that gap (design §5.4).
    """
    depth = 2 if len(key) >= TWO_EDIT_PROBE_MIN_LEN else 1
    return deletion_neighbourhood(key, depth)
