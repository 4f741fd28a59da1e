"""Input checks whose answers are not 422: empty content, oversized content, bad room paths."""

from castlegraph.api.errors import InvalidInput, InvalidPath, PayloadTooLarge
from castlegraph.api.service.content import holds_forbidden_characters

MAX_CONTENT_BYTES = 1024 * 1024
MAX_PATH_SEGMENT = 200


def check_content(content: str) -> str:
    if not content.strip():
        raise InvalidInput("content is empty or whitespace only")
    if holds_forbidden_characters(content):
        raise InvalidInput("content holds control characters or lone surrogates")
    size = len(content.encode("utf-8"))
    if size > MAX_CONTENT_BYTES:
        raise PayloadTooLarge("content is over 1 MiB", {"bytes": size, "max": MAX_CONTENT_BYTES})
    return content


def check_path_segment(kind: str, value: str) -> str:
    """Wing and room names: non-blank, at most 200 characters, no control characters."""
    if (
        not value.strip()
        or len(value) > MAX_PATH_SEGMENT
        or any(ord(char) < 32 or ord(char) == 127 for char in value)
    ):
        raise InvalidPath(f"invalid {kind} name", {kind: value[:MAX_PATH_SEGMENT]})
    return value
