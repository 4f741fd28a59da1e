"""Open the configured backend: Neo4j when a URI is given, else the embedded FalkorDB.

The Neo4j driver is imported only to open Neo4j: an embedded service would hold it in memory
for nothing (design §10).
"""

import importlib.metadata
from dataclasses import dataclass
from pathlib import Path

from castlegraph.graph.backends.embedded import HOST, EmbeddedFalkorDB
from castlegraph.graph.backends.falkordb_store import FalkorStore
from castlegraph.graph.backends.store import GraphStore

NEO4J_RETRY_SECONDS = 30.0
"""How long the Neo4j driver retries a transaction it could not run before giving up, unless
`graph.neo4j_retry_seconds` says otherwise: the driver's own default."""


def neo4j_driver() -> str:
    """The Neo4j driver's version, and whether its Rust extensions are installed (the package
    `neo4j-rust-ext`, a dependency where it has wheels: the driver then packs and unpacks Bolt
    messages in Rust, ~30 ms less of the service's CPU a batch of 1,000 mentions), from the
    installed packages' metadata: the driver is not imported."""
    driver = importlib.metadata.version("neo4j")
    try:
        importlib.metadata.version("neo4j-rust-ext")
    except importlib.metadata.PackageNotFoundError:
        return f"driver {driver} in pure Python (pip install neo4j-rust-ext for its Rust codec)"
    return f"driver {driver} with its Rust extensions"


@dataclass(frozen=True, slots=True)
class Neo4jTarget:
    uri: str
    user: str
    password: str
    database: str
    retry_seconds: float = NEO4J_RETRY_SECONDS
    memory_indexes_only: bool = False
    """Every instance serves candidate searches from memory: the database keeps no candidate
    index (`graph.neo4j_memory_indexes_only`)."""


class Backend:
    """A store plus, for the embedded database, the child process that serves it."""

    def __init__(self, store: GraphStore, embedded: EmbeddedFalkorDB | None = None) -> None:
        self.store = store
        self.embedded = embedded

    @property
    def description(self) -> str:
        if self.embedded is None:
            return "neo4j"
        return f"embedded FalkorDB on {HOST}:{self.embedded.port}, data in {self.embedded.data_dir}"

    def close(self) -> None:
        try:
            self.store.close()
        finally:
            if self.embedded is not None:
                self.embedded.stop()


def open_backend(neo4j: Neo4jTarget | None, data_dir: Path, port: int | None = None) -> Backend:
    if neo4j is not None:
        from castlegraph.graph.backends.neo4j_store import Neo4jStore  # noqa: PLC0415  # see the module docstring

        store = Neo4jStore(
            neo4j.uri,
            neo4j.user,
            neo4j.password,
            neo4j.database,
            neo4j.retry_seconds,
            memory_indexes_only=neo4j.memory_indexes_only,
        )
        return Backend(store)
    embedded = EmbeddedFalkorDB(data_dir, port)
    embedded.start()
    try:
        return Backend(FalkorStore(HOST, embedded.port, embedded.password), embedded)
    except Exception:
        embedded.stop()
        raise
