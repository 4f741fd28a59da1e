"""The compiled core (Rust, `core/`): present where castlegraph was installed with a Rust
toolchain. Chosen through `castlegraph.resolver.core`, never imported directly."""

from collections.abc import Sequence

__version__: str

def sketch(normalized: str) -> tuple[str, ...]: ...
def anchor_terms(wing: str, room: str, normalized: str) -> list[str]: ...
def band_terms(
    wing: str, room: str, sketched: Sequence[str], buckets: Sequence[int]
) -> list[str]: ...
def scoped_hash(wing: str, room: str, word: str) -> str: ...

# The probe and index keys of an entity key (`resolver.entity_probes`): None for a key that is
# no UTF-8 (a lone surrogate), which the caller hands to the Python twin.
def one_edit_keys(key: str) -> frozenset[str] | None: ...
def review_keys(key: str) -> frozenset[str] | None: ...
def stored_keys(key: str, dense: bool) -> frozenset[str] | None: ...

# Which (probe, row) hits of an index lookup a rule may use (`resolver.entity_hits.may_use`):
# int64 arrays of places in, the mask out as bytes of 0 and 1; None where a sender or a key is
# no UTF-8 (a lone surrogate), which the caller hands to the Python twin.
def may_use(
    senders: Sequence[str | None],
    row_keys: Sequence[tuple[str, ...] | None],
    pair_probe: object,
    pair_row: object,
) -> bytes | None: ...

# The in-memory entity index's segment search (`graph.indexes.key_segments`): numpy arrays in,
# read in place; int64 arrays out as bytes.
_Spans = tuple[int, bytes, bytes, bytes]

def key_hashes(keys: object) -> bytearray: ...
def row_keys(blob: object, ends: object, rows: object) -> list[tuple[str, ...] | None] | None: ...
def segment_spans(
    entries: object,
    offsets: object,
    first: int,
    last: int,
    bucket_bits: int,
    tag_bits: int,
    row_bits: int,
    hashes: object,
    ends_of_all: bool,
) -> _Spans: ...
def segment_find(
    entries: object,
    offsets: object,
    first: int,
    last: int,
    bucket_bits: int,
    tag_bits: int,
    row_bits: int,
    base: int,
    hashes: object,
    run_starts: object | None = None,
) -> tuple[tuple[bytes, bytes] | None, _Spans | None]: ...

# The in-memory drawer index's choice (`graph.indexes.drawer_index`): each write's ranked rows
# (word pairs', bands'), or None where a probe is no UTF-8.
def drawer_choice(
    names: list[str],
    writes: list[tuple[int, int, int, int]],
    recent_probes: list[int],
    recent_rows: list[int],
    segments: list[tuple[object, object, int, int, int, int, int, int]],
    dead: object,
    lengths: object,
    uuids: object,
    other_ids: dict[int, bytes],
    caps: tuple[int, int, int],
) -> list[tuple[list[int], list[int]]] | None: ...

# The drawer index's recent rows by term (`graph.indexes.recent_terms`), keyed by each term's
# Python hash.
class RecentTerms:
    @property
    def entries(self) -> int: ...
    def add(self, row: int, terms: Sequence[str]) -> None: ...
    def held(self, names: Sequence[str]) -> tuple[list[int], list[int]]: ...
    def pairs(self) -> tuple[bytes, bytes]: ...

# FalkorDB's `CYPHER name=value ...` parameter header (`graph.backends.falkordb_params`):
# `fallback` writes what the core does not (the client's `stringify_param_value`); None where a
# string is no UTF-8 (a lone surrogate), which the caller hands to the Python twin.
def params_header(params: dict[str, object], fallback: object) -> str | None: ...
