"""Splitting a document into chunks for mining (pure: text in, chunks out).

Chunks follow paragraph boundaries (blank lines) where possible: paragraphs are packed into a
chunk until the next one would pass the size; a paragraph longer than the size is cut at line
ends, and a line longer than the size is cut where it must. Chunk size is counted in code
points; 2,000 keeps every chunk inside the edit-distance range of drawer similarity.
"""

import re

DEFAULT_CHUNK_CHARS = 2000
MIN_CHUNK_CHARS = 100
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n+")


def _cut_long(paragraph: str, size: int) -> list[str]:
    pieces: list[str] = []
    current = ""
    for line in paragraph.splitlines(keepends=True):
        rest = line
        while len(rest) > size:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(rest[:size])
            rest = rest[size:]
        if current and len(current) + len(rest) > size:
            pieces.append(current)
            current = ""
        current += rest
    if current:
        pieces.append(current)
    return pieces


def chunk_text(text: str, size: int = DEFAULT_CHUNK_CHARS) -> list[str]:
    """Non-blank chunks of at most `size` code points, in document order."""
    size = max(size, MIN_CHUNK_CHARS)
    chunks: list[str] = []
    current = ""
    for raw in _PARAGRAPH_BREAK.split(text):
        paragraph = raw.strip("\n")
        if not paragraph.strip():
            continue
        pieces = [paragraph] if len(paragraph) <= size else _cut_long(paragraph, size)
        for piece in pieces:
            joined = f"{current}\n\n{piece}" if current else piece
            if len(joined) <= size:
                current = joined
            else:
                chunks.append(current)
                current = piece
    if current.strip():
        chunks.append(current)
    return [chunk for chunk in chunks if chunk.strip()]
