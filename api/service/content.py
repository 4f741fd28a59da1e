"""What drawer content may hold, whichever door it comes through: the drawer routes refuse
the rest (`400 input::invalid`) and mining counts a file holding it as failed (design §11)."""

import re

FORBIDDEN_IN_CONTENT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]")
"""C0 controls other than tab, line feed and carriage return: not text, and NUL cuts queries.
Lone surrogates cannot be stored as UTF-8."""


def holds_forbidden_characters(content: str) -> bool:
    return FORBIDDEN_IN_CONTENT.search(content) is not None
