"""The `GraphStore` protocol that both backends implement.

A use case is a function of a `Tx`: it runs named statements and returns plain values.
`read` and `write` run it as one managed transaction on Neo4j. FalkorDB has no multi-statement
transactions, so its store serialises every write unit in the process (the embedded database
belongs to one service, see `graph.backends.embedded`), and each use case makes its changes in one
final statement, which FalkorDB applies atomically.
"""

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

from castlegraph.graph.backends.queries import Dialect
from castlegraph.graph.backends.server import Server

T = TypeVar("T")
Row = dict[str, Any]


class Tx(Protocol):
    def run(self, name: str, /, **params: Any) -> list[Row]:
        """Run the statement called `name` with `params`; rows as plain dicts."""
        ...

    def lock(self, scope: str) -> None:
        """Hold an exclusive lock on `scope` until the transaction ends."""
        ...

    def run_locked(self, scope: str, name: str, /, **params: Any) -> list[Row]:
        """`lock(scope)`, then `run(name, **params)`: in one round trip where the lock is a
        statement (Neo4j), the lock's clause leading the statement's own."""
        ...

    def lock_all(self, scopes: Sequence[str]) -> None:
        """Hold exclusive locks on `scopes` until the transaction ends, taken in the order
        given: callers sort them, so two units never each hold a lock the other waits for."""
        ...

    def lock_scopes(self, prefix: str) -> list[str] | None:
        """The scopes under `prefix` that some unit has locked before; None where the store
        serialises every write unit itself (FalkorDB), which holds every lock already."""
        ...

    def run_settled(self, name: str, /) -> list[Row]:
        """Run `name`, the read of a counter that its writers hold locked until their commit
        is applied, once no writer holds it: what was stamped up to the value read is then
        all there to read. Neo4j shows a commit to concurrent readers part by part (the
        counter before some of what it stamped), so there the read takes the counter's lock
        in a short transaction of its own (`<name>_settled`), beside this one."""
        ...

    @property
    def shows_commits_whole(self) -> bool:
        """Whether a read here never meets a commit half applied, so a counter read once
        needs no second, settled read (`run_settled`, then a plain `run`): FalkorDB applies
        each statement whole (and its store serialises every unit)."""
        ...


class GraphStore(Protocol):
    dialect: Dialect

    def read(self, work: Callable[[Tx], T], *, use_case: str) -> T: ...

    def write(self, work: Callable[[Tx], T], *, use_case: str) -> T: ...

    memory_replaces_indexes: bool
    """Whether `apply_schema(memory_indexes=True)` leaves out the database's candidate
    indexes (`graph.backends.queries.MEMORY_SERVED`): true where one service owns the database
    (FalkorDB), or where every instance serves them from memory (Neo4j with
    `graph.neo4j_memory_indexes_only`)."""

    @property
    def stores_entity_keys(self) -> bool:
        """Whether entity writes store the candidate-index keys (`resolver.entity_search_keys`);
        false only while the in-memory index serves an embedded database that keeps no index
        of them (Neo4j always stores them: an instance without the memory index may start).
        An entity's stored keys are then dropped when its spellings change, so every entity
        holds either the keys of its current spellings or none
        (`graph.schema.migration_steps.fill_entity_keys` gives them back)."""
        ...

    def apply_schema(self, *, memory_indexes: bool = False) -> None:
        """Create every constraint and index that is missing, then wait until usable;
        `memory_indexes`: the service answers candidate searches from its own memory."""
        ...

    def restore_index(self, served: str) -> None:
        """Create again the database's candidate index that the in-memory index `served`
        ("entity", "drawer") replaced, and wait until it answers: that one failed to build.
        Entity writes store their keys from then on; those written without are the caller's
        to fill in (`graph.schema.migration_steps.fill_entity_keys`)."""
        ...

    def ensure_vector_index(self, dimension: int) -> None:
        """Create the drawers' vector index for `dimension` unless it exists."""
        ...

    def ping(self) -> None:
        """Raise `GraphUnavailable` unless the database answers."""
        ...

    def server(self) -> Server:
        """The database's product, version and edition, as it reports them; `UnsupportedServer`
        for one castlegraph's statements do not run on (`graph.backends.server`)."""
        ...

    def close(self) -> None: ...
