"""Opaque page cursors: the sort key of a page's last row, which the next page starts after.

Drawers of a room page by `(created_at, id)`, entities found by name by `id`; both hand the
client the same kind of cursor, the URL-safe base64 of a JSON array of the key's strings. A
client only ever sends back what a page returned, so anything else (not base64, not JSON, not
that many non-empty strings of id text) is refused with `InvalidCursor`, one answer for every
resource.
"""

import base64
import binascii
import json
import re

from castlegraph.graph.errors import InvalidCursor

NOT_ID_TEXT = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
"""What no id or sort key holds: control characters (a NUL cuts a FalkorDB query) and lone
surrogates (no UTF-8 spells them, so no driver can send them). The rule for ids in request
paths too (the API's dependencies), so a malformed id is bad input wherever it comes, never
a bug."""


def is_id_text(value: str) -> bool:
    return NOT_ID_TEXT.search(value) is None


def encode_cursor(*key: str) -> str:
    return base64.urlsafe_b64encode(json.dumps(list(key)).encode()).decode()


def decode_cursor(cursor: str, length: int) -> tuple[str, ...]:
    """The key `encode_cursor` was given, which must have `length` parts."""
    try:
        key = json.loads(base64.b64decode(cursor.encode(), altchars=b"-_", validate=True))
    except (ValueError, binascii.Error) as error:
        raise InvalidCursor(cursor) from error
    if (
        not isinstance(key, list)
        or len(key) != length
        or not all(isinstance(part, str) and part and is_id_text(part) for part in key)
    ):
        raise InvalidCursor(cursor)
    return tuple(key)
