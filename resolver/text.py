"""Normalised text of a drawer (design §4.1) and the hashes derived from it.

The normal form removes what a copy-paste or a re-format changes (case, punctuation, spacing)
while keeping what changes the meaning (accents, digits, letters of any script).
"""

import hashlib
import re
import unicodedata


def content_hash(content: str) -> str:
    """SHA-256 hex of the exact UTF-8 bytes: equal hashes mean an exact copy."""
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


_ALNUM_RUNS = re.compile(r"[^\W_]+")  # \w is exactly str.isalnum() plus the underscore
_FINAL_SIGMA_SOURCE = "\u03a3"  # the one letter whose lower() depends on its neighbours


_ASCII_SEPARATORS = str.maketrans(
    {chr(c): " " for c in range(128) if not chr(c).isalnum()}  # ASCII letters and digits stay
)


def normalize_text(content: str) -> str:
    """NFC, then letters and digits lower-cased per character, everything else one separator.

    The regular expression does the walk in C; lower-casing the joined runs at once equals
    lower-casing each character except for a capital sigma, whose whole-string lower() looks
    at the context (final sigma), so texts holding one take the per-character path. An ASCII
    text (NFC already; its letters and digits are `[A-Za-z0-9]`) has its separators mapped to
    spaces and split instead: the same string in a third of the time, and a checkpoint
    normalises every candidate of every item (design §4.5).
    """
    if content.isascii():
        return " ".join(content.translate(_ASCII_SEPARATORS).split()).lower()
    text = " ".join(_ALNUM_RUNS.findall(unicodedata.normalize("NFC", content)))
    if _FINAL_SIGMA_SOURCE not in text:
        return text.lower()
    return "".join(char.lower() for char in text)


def normalize_text_by_character(content: str) -> str:
    """The rule spelled out one character at a time: the reference `normalize_text` equals."""
    out: list[str] = []
    pending_space = False
    for char in unicodedata.normalize("NFC", content):
        if char.isalnum():
            if pending_space and out:
                out.append(" ")
            pending_space = False
            # Per-character lower() (design §11): no final-sigma context, full mappings kept.
            out.append(char.lower())
        else:
            pending_space = True
    return "".join(out)


def fingerprint(normalized: str) -> str | None:
    """SHA-256 hex of the normal form; an empty normal form has none and never matches."""
    if not normalized:
        return None
    return hashlib.sha256(normalized.encode("utf-8")).hexdigest()
