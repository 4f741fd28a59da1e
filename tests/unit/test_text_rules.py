"""design §4.1–design §4.2: normal form, fingerprint and similarity, table-driven."""

import random
import unicodedata

import pytest

from castlegraph.resolver.drawers import DrawerText, compare, compare_all
from castlegraph.resolver.similarity import (
    at_least,
    osa_distance,
    similarities_at_least,
    similarity_at_least,
    text_similarity,
    trigram_jaccard,
)
from castlegraph.resolver.text import content_hash, fingerprint, normalize_text


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("Hello, World!", "hello world"),
        ("  leading and trailing  ", "leading and trailing"),
        ("tabs\tand\nnew\r\nlines", "tabs and new lines"),
        ("a---b___c", "a b c"),
        ("café", "café"),  # accents are kept
        ("Straße", "straße"),
        ("İstanbul", "i̇stanbul"),  # full lower-case mapping, per character
        ("ΟΔΟΣ", "οδοσ"),  # no final-sigma context
        ("日本語 テキスト", "日本語 テキスト"),
        ("v2.0-rc1", "v2 0 rc1"),
        ("!!!", ""),
        ("", ""),
    ],
)
def test_normal_form(raw: str, normal: str) -> None:
    assert normalize_text(raw) == normal


def test_nfc_makes_decomposed_and_composed_equal() -> None:
    composed, decomposed = "caf\u00e9", "cafe\u0301"
    assert composed != decomposed
    assert normalize_text(composed) == normalize_text(decomposed) == "café"
    assert unicodedata.is_normalized("NFC", normalize_text(decomposed))


def test_accents_are_not_folded() -> None:
    assert normalize_text("café") != normalize_text("cafe")


def test_fingerprint_is_sha256_of_the_normal_form_and_absent_when_empty() -> None:
    assert fingerprint("hello world") == content_hash("hello world")
    assert len(fingerprint("x") or "") == 64
    assert fingerprint("") is None


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("ca", "abc", 3),  # OSA, not unrestricted Damerau (which gives 2)
        ("abcd", "abdc", 1),  # adjacent transposition costs 1
        ("kitten", "sitting", 3),
        ("", "abc", 3),
        ("same", "same", 0),
    ],
)
def test_osa_distance(a: str, b: str, distance: int) -> None:
    assert osa_distance(a, b) == distance


@pytest.mark.parametrize(
    ("a", "b", "similarity"),
    [
        ("", "", 0.0),
        ("", "abc", 0.0),
        ("abc", "abc", 1.0),
        ("abcdefghij", "abcdefghik", 0.9),
        ("use port 8080", "use port 8081", 1 - 1 / 13),
    ],
)
def test_similarity_up_to_2000_chars_is_one_minus_osa_over_longer(
    a: str, b: str, similarity: float
) -> None:
    assert text_similarity(a, b) == pytest.approx(similarity, abs=1e-12)


def test_two_edits_in_twenty_chars_is_exactly_near_at_point_nine() -> None:
    a = "abcdefghijklmnopqrst"
    b = "Xbcdefghijklmnopqrs" + "Y"
    assert len(a) == len(b) == 20
    score = text_similarity(a, b)
    assert at_least(score, 0.9)
    assert not at_least(score - 2e-9, 0.9)


def _edited(rng: random.Random, text: str, edits: int) -> str:
    """`text` with random swaps of neighbours (one OSA edit, two Levenshtein ones) and
    substitutions, insertions and deletions."""
    chars = list(text)
    for _ in range(edits):
        at = rng.randrange(max(1, len(chars) - 1))
        move = rng.choice(["swap", "swap", "sub", "ins", "del"])
        if move == "swap" and len(chars) > 1:
            chars[at], chars[at + 1] = chars[at + 1], chars[at]
        elif move == "sub" and chars:
            chars[at] = rng.choice("abcxyz ")
        elif move == "ins":
            chars.insert(at, rng.choice("abcxyz "))
        elif chars:
            del chars[at]
    return "".join(chars)


@pytest.mark.parametrize("threshold", [0.5, 0.8, 0.9, 0.95, 1.0])
def test_the_cutoff_score_agrees_with_the_full_score_at_every_distance(threshold: float) -> None:
    """`similarity_at_least` rules pairs out by a Levenshtein bound before scoring them: it must
    answer exactly as the full score and `at_least`, on both sides of the threshold (edges
    included: 2 edits in 20 at 0.9), whatever mix of swaps and other edits."""
    rng = random.Random(f"cutoff:{threshold}")
    pairs = [("abcdefghijklmnopqrst", "Xbcdefghijklmnopqrs" + "Y"), ("", "abc"), ("abc", "abc")]
    for _ in range(600):
        base = "".join(rng.choice("abcdefgh ") for _ in range(rng.randint(1, 300)))
        pairs.append((base, _edited(rng, base, rng.randint(0, max(1, len(base) // 3)))))
    long_base = "".join(rng.choice("abcdefgh ") for _ in range(2100))
    pairs.append((long_base, _edited(rng, long_base, 40)))
    ruled_out = 0
    for a, b in pairs:
        full = text_similarity(a, b)
        expected = full if at_least(full, threshold) else None
        assert similarity_at_least(a, b, threshold) == expected, (a, b)
        ruled_out += expected is None
    assert ruled_out > 0 and ruled_out < len(pairs)


@pytest.mark.parametrize("threshold", [0.5, 0.9, 1.0])
def test_one_pass_over_many_texts_answers_as_one_call_each(threshold: float) -> None:
    """`similarities_at_least` (one rapidfuzz pass at the widest cutoff, each pair then held to
    its own) answers exactly as `similarity_at_least` pair by pair: texts of every length, so
    the cutoffs differ, near and far, equal, empty, and past the edit-distance limit."""
    rng = random.Random(f"many:{threshold}")
    for _ in range(60):
        base = "".join(rng.choice("abcdefgh ") for _ in range(rng.randint(1, 400)))
        others = [
            _edited(rng, base, rng.randint(0, max(1, len(base) // 4)))
            for _ in range(rng.randint(0, 30))
        ]
        others += ["", base, "".join(rng.choice("xyz") for _ in range(rng.randint(1, 600)))]
        if rng.random() < 0.1:
            others.append(base + "".join(rng.choice("ab") for _ in range(2001)))
        rng.shuffle(others)
        one_each = [similarity_at_least(base, other, threshold) for other in others]
        assert similarities_at_least(base, others, threshold) == one_each
    assert similarities_at_least("abc", [], threshold) == []


def test_comparing_many_texts_gives_each_the_likeness_one_comparison_gives() -> None:
    """`compare_all` against `compare` one by one: exact copies (an empty normal form too),
    normalised copies, near copies, texts too short for a near copy and distinct ones."""
    rng = random.Random("compare_all")
    base = "The quick brown fox jumps over the lazy dog near the river bank today"
    texts = [
        base,
        base.upper() + "!",
        base.replace("quick", "quack"),
        base[:10],
        "",
        "...",
        "Something else entirely, with no words of the first",
        *(_edited(rng, base, rng.randint(0, 12)) for _ in range(40)),
    ]
    for new in (base, "", "..."):
        written = DrawerText.of(new)
        others = [(f"d{n}", DrawerText.of(text)) for n, text in enumerate(texts)]
        for threshold in (0.8, 0.9):
            one_each = [compare(written, i, other, threshold) for i, other in others]
            assert compare_all(written, others, threshold) == one_each
            kinds = {likeness.kind for likeness in one_each if likeness is not None}
            assert kinds == ({"exact", "normalized", "near"} if new == base else {"exact"})
    assert compare_all(DrawerText.of(base), [], 0.9) == []


def test_the_switch_to_trigram_jaccard_happens_above_2000_code_points() -> None:
    base = "".join(chr(ord("a") + (i * 7) % 26) for i in range(2000))
    edited = "Z" + base[1:]
    assert text_similarity(base, edited) == pytest.approx(1 - 1 / 2000)
    longer, longer_edited = base + "q", edited + "q"
    assert len(longer) == 2001
    assert text_similarity(longer, longer_edited) == pytest.approx(
        trigram_jaccard(longer, longer_edited)
    )
    assert text_similarity(longer, longer_edited) != pytest.approx(1 - 1 / 2001)


def test_trigrams_include_spaces() -> None:
    assert trigram_jaccard("ab cd", "ab cd") == 1.0
    assert trigram_jaccard("ab cd", "abcd") == 0.0


def test_the_fast_normal_form_equals_the_per_character_rule() -> None:
    """Random text from every plane of interest, including the tricky letters."""
    import random  # noqa: PLC0415

    from castlegraph.resolver.text import normalize_text_by_character  # noqa: PLC0415

    rng = random.Random(42)
    alphabet = (
        [chr(c) for c in range(0x20, 0x250)]
        + list("ΣσςİIıẞß\u0301\u0307\u00ad\u200b_-\t\n")
        + [chr(c) for c in range(0x370, 0x3FF)]
        + [chr(c) for c in range(0x400, 0x4FF)]
        + [chr(c) for c in range(0x660, 0x66A)]  # Arabic-Indic digits
        + [chr(c) for c in range(0x2160, 0x2189)]  # Roman numerals (numeric letters)
        + [chr(c) for c in range(0x3040, 0x30FF)]
    )
    for _ in range(3000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 40)))
        assert normalize_text(text) == normalize_text_by_character(text), repr(text)


def test_the_ascii_normal_form_equals_the_per_character_rule() -> None:
    """ASCII text takes its own path (`str.translate`): every one of the 128 code points."""
    import random  # noqa: PLC0415

    from castlegraph.resolver.text import normalize_text_by_character  # noqa: PLC0415

    rng = random.Random(7)
    alphabet = [chr(c) for c in range(128)]
    for _ in range(3000):
        text = "".join(rng.choices(alphabet, k=rng.randint(0, 40)))
        assert normalize_text(text) == normalize_text_by_character(text), repr(text)
