"""The one page cursor codec: a key goes round, anything a page never returned is refused."""

import base64

import pytest

from castlegraph.graph.cursors import decode_cursor, encode_cursor
from castlegraph.graph.errors import InvalidCursor


def test_a_key_goes_round() -> None:
    assert decode_cursor(encode_cursor("2026-01-01T00:00:00Z", "d-1"), 2) == (
        "2026-01-01T00:00:00Z",
        "d-1",
    )
    assert decode_cursor(encode_cursor("é/+?"), 1) == ("é/+?",)


@pytest.mark.parametrize(
    ("cursor", "length"),
    [
        ("not-a-cursor", 1),
        ("%%%", 1),
        (base64.urlsafe_b64encode(b"plain text").decode(), 1),
        (encode_cursor("a", "b"), 1),
        (encode_cursor(""), 1),
        (base64.urlsafe_b64encode(b'{"a": "b"}').decode(), 1),
        (base64.urlsafe_b64encode(b"[1, 2]").decode(), 2),
        (encode_cursor("a\x00b"), 1),  # a NUL cuts a FalkorDB query
        (encode_cursor("\ud800", "d-1"), 2),  # a lone surrogate: no driver can send it
        (encode_cursor("2026-01-01T00:00:00Z", "\x1b"), 2),
    ],
)
def test_anything_else_is_refused(cursor: str, length: int) -> None:
    with pytest.raises(InvalidCursor) as refused:
        decode_cursor(cursor, length)
    assert refused.value.details == {"cursor": cursor}
    assert refused.value.message == "the cursor is not one this service returned"
