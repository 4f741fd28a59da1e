"""The compiled core's drawer functions answer as their pure-Python references do, on random
and adversarial input (accents, digits, CJK, emoji, separators, very long texts, empty ones):
the hashes they make are stored, so a drawer written under one core must be found under the
other (`resolver.core`). Skipped only where the compiled core is not built."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from castlegraph.resolver import core, drawer_terms, shingles
from castlegraph.resolver.drawers import anchor_terms, index_terms, prepare_text
from castlegraph.resolver.text import normalize_text
from tests.support.cores import chosen_back, needs_native

pytestmark = needs_native

python_sketch = shingles.sketch.__wrapped__  # the uncached reference

ADVERSARIAL = (
    "aAzZ09éÉèñüßÅøæœ"  # Latin letters, accents, ß
    "東京大阪漢字かなカナ한국어"  # CJK
    "😀🎉👩‍💻🇫🇷"  # emoji, a ZWJ sequence, a flag
    "ΣσςΑα"  # sigma's three forms
    "٣٤५६"  # digits of other scripts
    " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2028\u2029\u202f\u3000"  # every kind
    ".,;:!?-_'\"()[]{}#@/\\\u200b\u00ad\u0301"  # punctuation, zero-width, combining accent
)
characters = st.one_of(st.sampled_from(ADVERSARIAL), st.characters(exclude_categories=["Cs"]))
texts = st.text(characters, max_size=300)
words = st.text(st.sampled_from("abcdéñ東京😀0123456789"), min_size=1, max_size=12)
long_texts = st.lists(words, min_size=300, max_size=700).map(" ".join)
"""Several thousand code points: past the edit-distance limit and the one long bucket."""
any_text = st.one_of(texts, texts.map(normalize_text), long_texts)
places = st.tuples(st.text(characters, max_size=20), st.text(characters, max_size=20))


@settings(max_examples=200, deadline=None)
@given(any_text)
@example("")
@example("a")
@example("abc")
@example("東")
@example("😀" * 3)
@example("x" * 5000)
def test_sketch(text: str) -> None:
    native = core.native_module()
    assert native is not None
    assert native.sketch(text) == python_sketch(text)


@settings(max_examples=200, deadline=None)
@given(places, any_text)
@example(("", ""), "")
@example(("w", "r"), "one")
@example(("w", "r"), "a\x1cb\u3000c\xa0d")
@example(("wing\x1f", "room"), "the same pair the same pair")
def test_anchor_terms(place: tuple[str, str], text: str) -> None:
    native = core.native_module()
    assert native is not None
    assert native.anchor_terms(*place, text) == drawer_terms.anchor_terms(*place, text)


@settings(max_examples=200, deadline=None)
@given(places, any_text, st.lists(st.integers(-(2**40), 2**40), max_size=3))
def test_band_terms(place: tuple[str, str], text: str, buckets: list[int]) -> None:
    native = core.native_module()
    assert native is not None
    sketched = python_sketch(text)
    assert native.band_terms(*place, sketched, buckets) == drawer_terms.band_terms(
        *place, sketched, buckets
    )


@settings(max_examples=200, deadline=None)
@given(places, texts)
def test_scoped_hash(place: tuple[str, str], word: str) -> None:
    native = core.native_module()
    assert native is not None
    assert native.scoped_hash(*place, word) == drawer_terms.scoped_hash(*place, word)


@settings(max_examples=100, deadline=None)
@given(places, any_text, st.sampled_from([0.5, 0.75, 0.9, 1.0]))
def test_a_write_prepares_the_same_text_under_both_cores(
    place: tuple[str, str], content: str, threshold: float
) -> None:
    """What reaches the database and the in-memory index: the whole preparation of a write."""
    with chosen_back():
        core.choose("python")
        reference = prepare_text(*place, content, threshold)
        stored = index_terms(*place, reference.text.normalized)
        core.choose("native")
        assert prepare_text(*place, content, threshold) == reference
        assert index_terms(*place, reference.text.normalized) == stored


def test_every_separator_python_splits_on_splits_words_natively() -> None:
    """`str.split()` splits on Python's white space, which is Unicode's and \\x1c to \\x1f."""
    native = core.native_module()
    assert native is not None
    spaces = [chr(c) for c in range(0x110000) if chr(c).isspace()]
    others = [chr(c) for c in range(0x3100) if not 0xD800 <= c < 0xE000]
    for char in {*spaces, *others}:
        text = f"ab{char}cd ef"
        assert native.anchor_terms("w", "r", text) == drawer_terms.anchor_terms("w", "r", text), (
            hex(ord(char))
        )


STORED_TEXT = "deploy the staging cluster on friday café naïve 東京 2024"


@pytest.mark.parametrize("chosen", ["python", "native"])
def test_both_cores_make_the_terms_drawers_were_stored_under(chosen: str) -> None:
    """Pinned from the Python implementation before the compiled core existed: every drawer in
    a database was indexed so, and a core that drifted would no longer find them."""
    with chosen_back():
        core.choose(chosen)  # type: ignore[arg-type]
        assert core.sketch(STORED_TEXT)[:4] == (
            "43f89201909803",
            "2a05da3cb8b248.2",
            "6ac32ada570fd2.2",
            "65b4d34a23b2a8",
        )
        assert anchor_terms("wing", "room", STORED_TEXT)[:3] == [
            "9cc5024a113cd7f5",
            "3705759364626a49",
            "47bf5ec747188e9a",
        ]
        assert index_terms("wing", "room", STORED_TEXT)[-2:] == [
            "5d3511c888c388ee",
            "f041d9a56c8d247c",
        ]
