"""What a use case answers when the status a door reports depends on what happened."""

from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Changed:
    """The answer's JSON document, and whether the call changed something: a drawer or a
    mention created, a job cancelled. HTTP says so with 201 or 202; 200 when nothing changed
    (an exact copy, a mention already recorded, a job already finished)."""

    body: Json
    changed: bool
