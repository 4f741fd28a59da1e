"""Partition keys and review probes meet every two-edit pair, whichever key came first.

Generated pairs are one or two OSA edits apart (insertions, deletions, substitutions and
adjacent transpositions over a small alphabet, so edits collide with repeated letters and with
segment boundaries); the stored spelling's index keys must share a key with the mention's
review probes in both arrival orders (design §5.3: complete and order-independent).
"""

from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA, Indel

from castlegraph.resolver.entity_rules import REVIEW_TWO_EDIT_MIN_SIMILARITY
from castlegraph.resolver.entity_search_keys import index_keys, probe_keys
from castlegraph.resolver.entity_segments import (
    DENSE_MAX_LEN,
    MAX_EDITS,
    SEGMENTS,
    is_dense,
    partition_keys,
    partition_probe_keys,
)

ALPHABET = "abé r"
DIGITS = "a1 2"
"""Keys with digits of up to `DENSE_MAX_LEN` store deletion keys instead of partition keys."""
PROPERTIES = settings(max_examples=500, deadline=None)


def keys(alphabet: str, max_size: int) -> st.SearchStrategy[str]:
    return st.text(alphabet, min_size=6, max_size=max_size).map(lambda s: " ".join(s.split()))


@st.composite
def edited(draw: st.DrawFn, key: str, alphabet: str = ALPHABET) -> str:
    op = draw(st.sampled_from(("insert", "delete", "substitute", "transpose")))
    i = draw(st.integers(0, len(key)))
    letter = draw(st.sampled_from(alphabet))
    if op == "insert":
        return key[:i] + letter + key[i:]
    if op == "delete":
        return key[:i] + key[i + 1 :]
    if op == "substitute":
        return key[:i] + letter + key[i + 1 :]
    return key[:i] + key[i + 1 : i + 2] + key[i : i + 1] + key[i + 2 :]


@st.composite
def two_edit_pairs(
    draw: st.DrawFn, alphabet: str = ALPHABET, max_size: int = 48
) -> tuple[str, str]:
    first = draw(keys(alphabet, max_size))
    second = draw(edited(draw(edited(first, alphabet)), alphabet))
    return first, second


def _meets(stored: str, mention: str) -> bool:
    return bool(index_keys(stored) & probe_keys(mention, two_edits=True))


@PROPERTIES
@given(two_edit_pairs())
def test_every_linkable_two_edit_pair_is_met_in_both_orders(pair: tuple[str, str]) -> None:
    _assert_met_in_both_orders(*pair)


@PROPERTIES
@given(two_edit_pairs(DIGITS, DENSE_MAX_LEN + 4))
def test_dense_keys_with_digits_are_met_in_both_orders(pair: tuple[str, str]) -> None:
    _assert_met_in_both_orders(*pair)


def _assert_met_in_both_orders(a: str, b: str) -> None:
    distance = OSA.distance(a, b)
    longer = max(len(a), len(b))
    assume(0 < distance <= 2 and 1 - distance / longer >= REVIEW_TWO_EDIT_MIN_SIMILARITY - 1e-9)
    assume(min(len(a), len(b)) >= 4 and a.strip() == a and b.strip() == b)
    assert _meets(a, b), (a, b)
    assert _meets(b, a), (b, a)


def test_the_contract_examples_meet_whichever_comes_first() -> None:
    for a, b in [
        ("postgres", "postgresql"),
        ("katarina", "katerino"),
        ("christopher", "kristopher"),
        ("jonathan smyth", "jonathon smith"),
    ]:
        assert _meets(a, b) and _meets(b, a), (a, b)


def test_in_a_dense_family_the_review_probe_meets_only_near_keys() -> None:
    """Every `RFC ····` shared `rfc ` with two segments cut out: 2,000 candidates at 100 k
    entities. Deletion keys meet a stored key only if it shares a subsequence of
    `max(len) - 2` with the mention, and still every key within two edits."""
    family = [f"rfc {n}" for n in range(1000, 10_000)]
    for mention in ("rfc 8975", "rfc 1000"):
        assert is_dense(mention)
        met = {key for key in family if _meets(key, mention)}
        assert all(Indel.distance(key, mention) <= 4 for key in met), mention
        assert met >= {key for key in family if 0 < OSA.distance(key, mention) <= 2}
    tickets = [f"core {y} {n:03d}" for y in range(2015, 2027) for n in range(1, 1000, 7)]
    met = {key for key in tickets if _meets(key, "core 2024 123")}
    assert all(Indel.distance(key, "core 2024 123") <= 4 for key in met)
    assert "core 2024 120" in met
    assert not is_dense("core 2024 123 4567")  # long enough for partition keys to be selective


def test_a_stored_key_longer_than_the_mention_was_the_gap() -> None:
    """Before partition keys, depth-1 rows and a depth-2 probe never met these."""
    assert partition_keys("postgresql")
    assert set(partition_keys("postgresql")) & partition_probe_keys("postgres", [10])


def test_fifteen_keys_per_spelling_whatever_its_length() -> None:
    pairs = SEGMENTS * (SEGMENTS - 1) // 2
    assert partition_keys("abcdefg") == []  # shorter than any two-edit link's longer key
    for length in (8, 13, 40, 200):
        assert len(set(partition_keys(("abcdefghij" * 20)[:length]))) == pairs


def test_probes_are_bounded_at_any_length() -> None:
    assert len(partition_probe_keys("abcdefghij" * 20, range(198, 203))) <= 5 * 15 * 3


def _probes_cut_by_cut(key: str, stored_length: int) -> set[str]:
    """The probe keys for one stored length, derived cut by cut from the description in the
    `partition_keys` and `partition_probe_keys` docstrings (no plan shared between keys): what
    `partition_probe_keys` must equal."""
    length, found = len(key), set()
    bounds = [i * stored_length // SEGMENTS for i in range(SEGMENTS + 1)]
    for s, t in combinations(range(SEGMENTS), 2):
        end_s = min(bounds[s + 1] + 1, stored_length)
        end_t = min(bounds[t + 1] + 1, stored_length)
        prefix_len, suffix_len = bounds[s], stored_length - end_t
        if prefix_len + suffix_len > length:
            continue
        prefix, suffix = key[:prefix_len], key[length - suffix_len :]
        middle_len = bounds[t] - end_s
        shifts = [0] if middle_len <= 0 else range(-MAX_EDITS, MAX_EDITS + 1)
        for d1 in shifts:
            if abs(d1) + abs(length - stored_length - d1) > MAX_EDITS:
                continue
            start = end_s + d1
            middle = key[start : start + max(middle_len, 0)]
            if middle_len <= 0 or (
                start >= prefix_len and start + middle_len <= length - suffix_len
            ):
                found.add(f"{stored_length}:{s}{t}:{prefix}|{middle}|{suffix}")
    return found


@PROPERTIES
@given(keys(ALPHABET, 60))
def test_planned_probes_are_the_cuts_of_every_segment_pair(key: str) -> None:
    """The cuts are planned once per pair of lengths (`_probe_plan`); the keys they write from
    a mention are those the segment pairs and shifts give for that mention itself."""
    for stored_length in range(len(key) - MAX_EDITS, len(key) + MAX_EDITS + 1):
        expected = _probes_cut_by_cut(key, stored_length) if stored_length >= 8 else set()
        assert partition_probe_keys(key, [stored_length]) == expected
