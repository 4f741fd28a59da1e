"""Mining chunks: paragraph boundaries first, never over the size, nothing lost."""

import pytest

from castlegraph.resolver.chunks import MIN_CHUNK_CHARS, chunk_text


def test_small_paragraphs_are_packed_together() -> None:
    text = "one\n\ntwo\n\nthree"
    assert chunk_text(text, 200) == ["one\n\ntwo\n\nthree"]


def test_a_chunk_ends_on_a_paragraph_boundary() -> None:
    first, second = "a" * 120, "b" * 120
    assert chunk_text(f"{first}\n\n{second}", 200) == [first, second]


def test_a_long_paragraph_is_cut_at_line_ends_then_hard() -> None:
    lines = "\n".join(["x" * 80] * 5)  # 404 chars in one paragraph
    chunks = chunk_text(lines, 200)
    assert all(len(chunk) <= 200 for chunk in chunks)
    assert "".join(chunks).replace("\n", "") == "x" * 400
    hard = chunk_text("y" * 450, 200)
    assert [len(c) for c in hard] == [200, 200, 50]


@pytest.mark.parametrize("text", ["", "\n\n  \n", "   "])
def test_blank_documents_have_no_chunks(text: str) -> None:
    assert chunk_text(text) == []


def test_the_size_has_a_floor() -> None:
    assert all(len(c) <= MIN_CHUNK_CHARS for c in chunk_text("z" * 500, 10))
    assert len(chunk_text("z" * 500, 10)) == 5
