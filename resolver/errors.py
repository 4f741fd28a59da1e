"""Errors raised by the pure resolver rules.

Tree::

    ValueError
     └── EmptyLabel      a name, kind or alias that is blank once trimmed

Each class carries a stable ``code`` that the HTTP error envelope reports unchanged, so the API
maps resolver errors without parsing messages (DESIGN §7: ``domain::empty_label`` is a 400).
"""

from __future__ import annotations

from typing import ClassVar


class EmptyLabel(ValueError):
    """A label (mention name, kind, alias) is empty or whitespace only.

    ``field`` names which label was blank, so the API can point at it in ``details``.
    """

    code: ClassVar[str] = "domain::empty_label"

    def __init__(self, field: str) -> None:
        super().__init__(f"{field} must not be blank")
        self.field = field
