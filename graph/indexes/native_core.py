"""Which core the in-memory indexes run on: the compiled one (`castlegraph._core`, built from
`core/` where Rust exists) or their own numpy code, which gives the same answers.

`CASTLEGRAPH_CORE` chooses: `auto` (the default) takes the compiled core when it loads,
`native` insists on it, `python` never loads it. Asked once, at import: the indexes bind their
implementations then, so one process never mixes the two.
"""

import importlib
import os
from functools import cache
from types import ModuleType

CORE_ENV = "CASTLEGRAPH_CORE"
CHOICES = ("auto", "native", "python")


@cache
def native_entity_core() -> ModuleType | None:
    """The compiled core's module, or None where the numpy code runs."""
    choice = os.environ.get(CORE_ENV, "auto").strip().lower() or "auto"
    if choice not in CHOICES:
        raise ValueError(f"{CORE_ENV} must be one of {', '.join(CHOICES)}, not {choice!r}")
    if choice == "python":
        return None
    try:
        return importlib.import_module("castlegraph._core")
    except ImportError as error:
        if choice == "native":
            raise ImportError(f"{CORE_ENV}=native, but the compiled core: {error}") from error
        return None
