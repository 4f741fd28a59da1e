"""Which core runs the hot loops: the compiled one (`castlegraph._core`, Rust, built from
`core/` where a Rust toolchain exists) or the pure-Python one, chosen once at start (`choose`).

Every moved function has a pure-Python twin, its reference; differential tests hold the two to
equal answers. The choice binds this module's functions, so a call pays no dispatch: callers
call `core.sketch(...)`. Until a choice is made the pure-Python core runs. Unicode
normalisation and case folding stay in Python (`resolver.text`): the core is given normal forms.
"""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType
from typing import Literal, ParamSpec, TypeVar, get_args

import numpy as np
from numpy.typing import NDArray

from castlegraph.resolver import drawer_terms, entity_hits, entity_probes, shingles
from castlegraph.resolver.errors import CastlegraphError

P = ParamSpec("P")
R = TypeVar("R")

Choice = Literal["auto", "native", "python"]
"""The setting `core` (`CASTLEGRAPH_CORE`): `auto` takes the compiled core when it loads."""
CoreName = Literal["native", "python"]
CHOICES: tuple[Choice, ...] = get_args(Choice)
NATIVE_MODULE = "castlegraph._core"
SKETCH_CACHE = 64
"""Sketches kept per process: a write asks for its own twice (its probes, its stored terms)."""


class NativeCoreUnavailable(CastlegraphError):
    """`core = native` and the compiled core does not load: the service refuses to start
    rather than run slower than it was told to. Raised at start only, never answered to a
    caller (as `graph.errors.DataDirInUse`): the command that starts says it and exits 1."""


@dataclass(frozen=True, slots=True)
class Running:
    """The core in use and its version, as the start-up log, health, doctor and the benchmarks
    report it."""

    name: CoreName
    version: str

    def __str__(self) -> str:
        return f"{self.name} {self.version}"


sketch: Callable[[str], tuple[str, ...]] = shingles.sketch
"""`resolver.shingles.sketch`: a normal form's MinHash sketch."""
anchor_terms: Callable[[str, str, str], list[str]] = drawer_terms.anchor_terms
"""`resolver.drawer_terms.anchor_terms`: a normal form's word pairs, hashed with the room."""
band_terms: Callable[[str, str, Sequence[str], Sequence[int]], list[str]] = drawer_terms.band_terms
"""`resolver.drawer_terms.band_terms`: a sketch's bands per bucket, hashed with the room."""
one_edit_keys: Callable[[str], frozenset[str]] = entity_probes.one_edit_keys
"""`resolver.entity_probes.one_edit_keys`: a key and its deletion keys."""
review_keys: Callable[[str], frozenset[str]] = entity_probes.review_keys
"""`resolver.entity_probes.review_keys`: a mention key's review probes, less its folded form."""
stored_keys: Callable[[str, bool], frozenset[str]] = entity_probes.stored_keys
"""`resolver.entity_probes.stored_keys`: a spelling's index keys, less its folded form."""
may_use: Callable[
    [
        Sequence[str | None],
        Sequence[tuple[str, ...] | None],
        NDArray[np.intp],
        NDArray[np.intp],
    ],
    NDArray[np.bool_],
] = entity_hits.may_use
"""`resolver.entity_hits.may_use`: which (probe, row) hits of an index lookup a rule may use."""
segments: ModuleType | None = None
"""The compiled core where it runs, for the in-memory indexes' segment search
(`graph.indexes.key_segments`), the drawer index's choice (`graph.indexes.drawer_index`),
rows' keys (`graph.indexes.row_spellings`) and FalkorDB's parameter header
(`graph.backends.falkordb_params`), else None: their numpy and Python code runs."""


def _package_version() -> str:
    """The pure-Python core is castlegraph's own version."""
    try:
        return version("castlegraph")
    except PackageNotFoundError:
        return "unknown"


_running = Running("python", _package_version())
_lock = threading.Lock()


def running() -> Running:
    """The core chosen last (the pure-Python one until `choose` is called)."""
    return _running


def native_module() -> ModuleType | None:
    """The compiled core, or None where it was not built (or does not load here)."""
    try:
        import castlegraph._core as native  # noqa: PLC0415 - loaded only when chosen
    except ImportError:
        return None
    return native


def choose(choice: Choice) -> Running:
    """Bind the hot functions to the core `choice` names, once: `auto` takes the compiled core
    when it loads, `native` insists on it (`NativeCoreUnavailable` otherwise), `python` never
    loads it. Returns what runs."""
    global _running, sketch, anchor_terms, band_terms, segments  # noqa: PLW0603 - the one binding point
    global one_edit_keys, review_keys, stored_keys, may_use  # noqa: PLW0603
    if choice not in CHOICES:
        raise ValueError(f"core must be one of {', '.join(CHOICES)}, not {choice!r}")
    native = None if choice == "python" else native_module()
    if native is None and choice == "native":
        raise NativeCoreUnavailable(
            f"core = native (CASTLEGRAPH_CORE), but the compiled core {NATIVE_MODULE} is not "
            "installed or does not load: install castlegraph where a Rust toolchain (cargo) "
            "exists so it is built, or set CASTLEGRAPH_CORE=auto or python",
            {"core": choice},
        )
    with _lock:
        if native is None:
            sketch, anchor_terms, band_terms = (
                shingles.sketch,
                drawer_terms.anchor_terms,
                drawer_terms.band_terms,
            )
            one_edit_keys, review_keys, stored_keys = (
                entity_probes.one_edit_keys,
                entity_probes.review_keys,
                entity_probes.stored_keys,
            )
            may_use = entity_hits.may_use
            segments = None
            _running = Running("python", _package_version())
        else:
            sketch = lru_cache(maxsize=SKETCH_CACHE)(native.sketch)
            anchor_terms, band_terms = native.anchor_terms, native.band_terms
            one_edit_keys = _or_twin(native.one_edit_keys, entity_probes.one_edit_keys)
            review_keys = _or_twin(native.review_keys, entity_probes.review_keys)
            stored_keys = _or_twin(native.stored_keys, entity_probes.stored_keys)
            may_use = _or_twin(_as_mask(native.may_use), entity_hits.may_use)
            segments = native
            _running = Running("native", str(native.__version__))
    return _running


def _or_twin(native: Callable[P, R | None], twin: Callable[P, R]) -> Callable[P, R]:
    """The compiled function, and its twin for a key it cannot read: Python holds a lone
    surrogate in a string, which no UTF-8 can (the compiled core then answers None)."""

    def either(*args: P.args, **kwargs: P.kwargs) -> R:
        found = native(*args, **kwargs)
        return twin(*args, **kwargs) if found is None else found

    either.__doc__ = twin.__doc__
    return either


def _as_mask(native: Callable[P, bytes | None]) -> Callable[P, NDArray[np.bool_] | None]:
    """A compiled mask (bytes of 0 and 1) as the numpy bools its twin answers, viewed in place."""

    def viewed(*args: P.args, **kwargs: P.kwargs) -> NDArray[np.bool_] | None:
        mask = native(*args, **kwargs)
        return None if mask is None else np.frombuffer(mask, dtype=np.bool_)

    return viewed
