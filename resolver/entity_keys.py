"""Entity keys (design §5.1), kinds (§5.2) and the deletion keys that index typo search (§5.4).

**Key.** NFC, then per character: letters and digits (``str.isalnum``, as in §4.1), ``+`` and
``#`` are lower-cased (``str.lower`` per character, §11) and kept; ``.``, ``'`` and U+2019 (the
right single quote) are dropped without separating; anything else separates, a run of
separators is one space, none at either end. If nothing survives, the key is the trimmed,
lower-cased name. One addition the design notes are silent on: a combining mark (category ``M*``)
that follows a kept character is kept with it, because NFC leaves marks without a precomposed
form in place (Devanagari vowel signs, ``n̈``) and treating them as separators would split words
and silently fold accents.

**Deletion keys (one edit).** ``deletion_keys(k)`` is the deletion neighbourhood of depth 1:
``k`` plus every string obtained by deleting one code point. For any two keys ``a``, ``b``:

- ``D1(a) ∩ D1(b) ≠ ∅`` whenever ``OSA(a, b) ≤ 1``: after an insertion or deletion the shorter
  key is itself in the longer key's neighbourhood; a substitution at ``i`` deletes ``i`` on both
  sides; an adjacent transposition ``xy`` → ``yx`` deletes ``x`` on both sides.
- The converse does not hold: intersecting neighbourhoods only mean a common subsequence of
  length ≥ max(|a|, |b|) - 1, i.e. a Levenshtein distance ≤ 2 (``abcx`` / ``bcxy``).

So the database stores, for every spelling of an entity (its key and each alias key), the
spelling's deletion keys under an equality index (one row per (kind, deletion key, entity)); a
mention looks up *its* deletion keys with ``IN $keys``/``UNWIND`` and gets a small **superset** of
the one-edit candidates, found by equality lookups whose cost does not depend on how many
entities exist. The rules then verify every candidate with the true OSA distance; nothing is
decided from the index hit itself. No rule uses a pair whose shorter key has fewer than 4 code
points, so the graph layer may skip the fuzzy probe (and the stored rows) for keys that short.

**Two-edit review candidates.** ``review_probe_keys(k)`` is the neighbourhood of depth ≤ 2 on the
probe side, looked up against the same depth-1 rows. In general ``Dp(a) ∩ Ds(b) ≠ ∅`` iff the
longest common subsequence ``LCS(a, b) ≥ max(|a| - p, |b| - s)``; with ``p = 2`` (mention ``a``)
and ``s = 1`` (stored ``b``) that finds, besides every one-edit pair:

- every pair where the stored key is *shorter* by 1 or 2 and within two edits (two deletions;
  a deletion plus a substitution or transposition);
- equal-length pairs that differ by one deletion and one insertion (``abcx`` / ``bcxy``).

It misses stored keys *longer* than the mention at distance 2 and equal-length pairs with two
substitutions or transpositions (``Katarina``/``Katerino``): depth 2 on the stored side would
close that at ~|k|²/2 rows per spelling. ``resolver.entity_segments`` closes it instead with
15 partition keys per spelling, so review candidates are complete in both arrival orders
(design §5.3); every candidate, however found, is verified with the true OSA distance.
The probe is only widened when a two-edit link is possible at all: ``1 - 2/L ≥ 0.75`` needs a
longer key of ≥ 8, so both keys have ≥ 6 code points (``TWO_EDIT_PROBE_MIN_LEN``).

**Accent-folded keys.** The commonest pair in that gap is a name written with and without its
accents in two places (``Jönköping``/``Jonkoping``: two substitutions). ``folded_key(k)`` drops
the accents (canonical decomposition, combining marks removed); the graph layer stores it next
to a spelling's deletion keys and adds the mention's to its two-edit probe. It is an index key
only: keys themselves never fold accents (design §5.1), and the rules verify the true distance.
"""

from __future__ import annotations

import unicodedata

from castlegraph.resolver.errors import EmptyLabel

# Dropped without separating: ``Node.js`` = ``NodeJS``, ``O'Brien`` = ``OBrien``.
_DROPPED = frozenset(".'\u2019")
# Kept although not alphanumeric: ``C++`` ≠ ``C#`` ≠ ``C``.
_KEPT_SYMBOLS = frozenset("+#")
# Shortest key that can take part in a two-edit review pair (see the module docstring);
# a unit test checks it against the thresholds of ``resolver.entity_rules``.
TWO_EDIT_PROBE_MIN_LEN = 6


def _lower(text: str) -> str:
    """Lower-case per character (no final-sigma context), as design §11 requires."""
    return "".join(ch.lower() for ch in text)


def entity_key(name: str) -> str:
    """Return the entity key of ``name`` (design §5.1)."""
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


def normalize_kind(kind: str) -> str:
    """Trim and lower-case a kind; a blank kind raises :class:`EmptyLabel`."""
    normal = _lower(kind.strip())
    if not normal:
        raise EmptyLabel("kind")
    return normal


def folded_key(key: str) -> str:
    """``key`` without accents: NFD, combining marks (``M*``) dropped, NFC again."""
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
    """The depth-1 deletion neighbourhood stored per spelling and probed for one-edit pairs."""
    return deletion_neighbourhood(key, 1)


def review_probe_keys(key: str) -> list[str]:
    """Probe keys for one- and two-edit candidates against the stored depth-1 rows.

    Depth 2 when a two-edit review link is possible (key of ≥ ``TWO_EDIT_PROBE_MIN_LEN``),
    depth 1 otherwise; a superset of :func:`deletion_keys`. What it finds and misses is in the
    module docstring.
    """
    depth = 2 if len(key) >= TWO_EDIT_PROBE_MIN_LEN else 1
    return deletion_neighbourhood(key, depth)
