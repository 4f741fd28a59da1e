"""`GraphStore` on FalkorDB through its native client (never its Bolt port: design §2.1)."""

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import redis.exceptions
from falkordb import FalkorDB

from castlegraph.graph.backends.falkordb_params import params_header
from castlegraph.graph.backends.observe import observed_write, timed_statement
from castlegraph.graph.backends.queries import (
    MEMORY_SERVED,
    SEARCHES_OF_SERVED,
    Dialect,
    index_of,
    schema_statement,
    schema_statements,
    statement,
)
from castlegraph.graph.backends.server import Server
from castlegraph.graph.backends.store import Row
from castlegraph.graph.errors import (
    CONFLICT,
    ConstraintViolation,
    GraphQueryError,
    GraphUnavailable,
    UnindexedSearch,
)

T = TypeVar("T")

GRAPH_NAME = "castlegraph"
QUERY_TIMEOUT_MS = 30_000
SOCKET_TIMEOUT_SECONDS = QUERY_TIMEOUT_MS / 1000 + 10.0
"""A hung database (stopped, deadlocked) never answers: without a socket timeout a request
thread would wait forever. Longer than the query timeout, so a slow query fails server-side."""
CONNECT_TIMEOUT_SECONDS = 5.0
INDEX_WAIT_SECONDS = 60.0
SCHEMA_WAIT_SECONDS = 1800.0
"""How long the schema's indexes may take to build over the data already stored: the candidate
indexes, created again when the in-memory ones are turned off or failed (design §5.4), are
built from every node's arrays (FalkorDB took 251 s for the deletion keys of 1 M entities as it
read its file; more on a busy machine). A FAILED index still stops the wait at once."""

# Unique constraints; FalkorDB builds them asynchronously on top of range indexes.
UNIQUE_CONSTRAINTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Drawer", ("id",)),
    ("Entity", ("id",)),
    ("Wing", ("name",)),
    ("Room", ("wing", "name")),
    ("Entity", ("kind", "name")),
    ("Migration", ("version",)),
)


_CANDIDATE_INDEXES = {"entity_dkeys": ("Entity", "dkeys"), "drawer_terms": ("Drawer", "terms")}
"""The label and property each candidate index of `MEMORY_SERVED` covers, by its topic."""


OVERLOADED = ("max pending queries exceeded", "mem consumption exceeded capacity")
"""FalkorDB's refusals of a query it has no room for now: a busy server, not a bad statement."""


def _translate(error: Exception) -> Exception:
    """Lost connections, timeouts (the socket's, or FalkorDB's own query timeout, which
    comes back as an error reply) and an overloaded server are `GraphUnavailable`: retrying
    may help (design §7). A socket timeout may surface as redis-py's `TimeoutError` or as the
    builtin one (an `OSError`). Messages are castlegraph's own; the driver's text stays the
    cause."""
    if isinstance(
        error, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError | TimeoutError
    ):
        return GraphUnavailable("the embedded graph database is unavailable; retry later")
    message = str(error)
    lowered = message.lower()
    if "timed out" in lowered:
        return GraphUnavailable("the embedded graph database query timed out; retry later")
    if any(part in lowered for part in OVERLOADED):
        return GraphUnavailable("the embedded graph database is busy; retry later")
    if "unique constraint violation" in message:
        return ConstraintViolation(CONFLICT)
    return GraphQueryError(f"the graph database refused a statement: {message}")


def _operations(operation: Any) -> Iterator[Any]:
    yield operation
    for child in operation.children:
        yield from _operations(child)


class _FalkorTx:
    def __init__(self, store: "FalkorStore", use_case: str) -> None:
        self._store = store
        self._use_case = use_case

    @timed_statement
    def run(self, name: str, /, **params: Any) -> list[Row]:
        if name in self._store.unindexed_searches:
            raise UnindexedSearch(
                f"{name} searches a database index that is not there (the service's memory"
                " serves it instead): refused rather than read every node of its label"
            )
        return self._store.run_text(statement(name, "falkordb"), params)

    def lock(self, scope: str) -> None:
        """Nothing to do: the store already holds its process-wide write lock."""

    def run_locked(self, scope: str, name: str, /, **params: Any) -> list[Row]:
        """`run`: the process-wide write lock is every lock, as for `lock`."""
        return self.run(name, **params)

    def lock_all(self, scopes: Sequence[str]) -> None:
        """Nothing to do, as for `lock`."""

    def lock_scopes(self, prefix: str) -> list[str] | None:
        """None: the process-wide write lock is every lock."""
        return None

    def run_settled(self, name: str, /) -> list[Row]:
        """`run`: FalkorDB applies each statement whole (`shows_commits_whole`)."""
        return self.run(name)

    @property
    def shows_commits_whole(self) -> bool:
        return True


def _field(module: dict[Any, Any], name: str) -> Any:
    """A module-list field, whether the connection decodes answers to text or not."""
    return module.get(name, module.get(name.encode()))


class FalkorStore:
    dialect: Dialect = "falkordb"

    def __init__(
        self,
        host: str,
        port: int,
        password: str | None = None,
        socket_timeout: float = SOCKET_TIMEOUT_SECONDS,
        query_timeout_ms: int = QUERY_TIMEOUT_MS,
    ) -> None:
        try:
            self._db = FalkorDB(
                host=host,
                port=port,
                password=password,
                socket_timeout=socket_timeout,
                socket_connect_timeout=min(CONNECT_TIMEOUT_SECONDS, socket_timeout),
            )
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error
        self._query_timeout_ms = query_timeout_ms
        self._graph = self._db.select_graph(GRAPH_NAME)
        self._write_lock = threading.RLock()
        self._vector_index = False
        self.unindexed_searches: frozenset[str] = frozenset()
        """The candidate searches refused (`UnindexedSearch`): those of the indexes that
        `apply_schema(memory_indexes=True)` left out, until `restore_index` makes one again."""

    def run_text(self, text: str, params: dict[str, Any]) -> list[Row]:
        try:
            query = params_header(params) + text  # the client's header, written faster
            result = self._graph.query(query, None, timeout=self._query_timeout_ms)
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error
        names = [column[1] for column in result.header]
        return [dict(zip(names, row, strict=True)) for row in result.result_set]

    def explain(self, text: str, params: dict[str, Any]) -> str:
        """The execution plan of a statement, as FalkorDB prints it (for tests and diagnosis)."""
        return str(self._graph.explain(text, params))

    def profile_work(self, text: str, params: dict[str, Any]) -> int:
        """Rows every operator of the plan produced, running the statement (tests, diagnosis).

        An operator that expands a node's edges produces one row per edge it walks, so this sum
        shows whether a statement's cost follows the degree of the nodes it touches.
        """
        try:
            plan = self._graph.profile(text, params)
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error
        return sum(operation.records_produced for operation in _operations(plan.structured_plan))

    def read(self, work: Callable[[Any], T], *, use_case: str) -> T:
        return work(_FalkorTx(self, use_case))

    @observed_write
    def write(self, work: Callable[[Any], T], *, use_case: str) -> T:
        with self._write_lock:
            return work(_FalkorTx(self, use_case))

    def ping(self) -> None:
        try:
            self._db.connection.ping()
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error

    def server(self) -> Server:
        """FalkorDB's version from the module list (41603: 4.16.3); castlegraph ships the
        server it runs on, so no version is refused."""
        try:
            modules = self._db.connection.module_list()
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error
        number = next(
            (int(_field(m, "ver")) for m in modules if _field(m, "name") in ("graph", b"graph")),
            None,
        )
        if number is None:
            return Server("FalkorDB", "unknown")
        return Server("FalkorDB", f"{number // 10000}.{number // 100 % 100}.{number % 100}")

    memory_replaces_indexes = True
    """The embedded database has one owner (its data directory is locked), so while that
    service keeps the candidate indexes in its memory the database's copies are only upkeep:
    FalkorDB rebuilds every index as it loads its file (most of a start) and updates them in
    every write statement (design §5.4)."""

    def apply_schema(self, *, memory_indexes: bool = False) -> None:
        """With `memory_indexes`, the candidate indexes are not created, and dropped when a
        palace of an older version has them. The drawers' term arrays stay stored (the
        in-memory drawer index is built from them, and `restore_index` indexes them again);
        entity writes stop storing the entities' keys (`stores_entity_keys`), which the
        in-memory entity index derives from the spellings."""
        served = set(MEMORY_SERVED.values()) if memory_indexes else set()
        with self._write_lock:
            for _, text in schema_statements("falkordb", without=served):
                self._create_index(text)
            self.run_text(statement("know_relationship_types", "falkordb"), {})
            existing = self._constraints()
            for label, properties in UNIQUE_CONSTRAINTS:
                if (label, tuple(sorted(properties))) not in existing:
                    self._create_constraint(label, properties)
            dropped = [self._drop_index(file_name) for file_name in sorted(served)]
            if any(dropped):
                self._rewrite_file()
            self._wait_until_operational(SCHEMA_WAIT_SECONDS)
            searches = frozenset().union(*SEARCHES_OF_SERVED.values())
            self.unindexed_searches = searches if memory_indexes else frozenset()

    @property
    def stores_entity_keys(self) -> bool:
        """False while the entity index is left out (its searches refused): an entity's 48 or
        so keys were two thirds of the database's memory (2.6 GB at a million entities, 0.8
        without), and storing them a third of the time of a statement that creates entities.
        Read by write units, under the write lock that `apply_schema` and `restore_index`
        change it under."""
        return SEARCHES_OF_SERVED["entity"].isdisjoint(self.unindexed_searches)

    def restore_index(self, served: str) -> None:
        file_name = MEMORY_SERVED[served]
        text = schema_statement(file_name, "falkordb")
        with self._write_lock:
            self._create_index(text)
            self._wait_until_operational(SCHEMA_WAIT_SECONDS)
            self.unindexed_searches -= SEARCHES_OF_SERVED[served]

    def _create_index(self, text: str) -> None:
        try:
            self.run_text(text, {})
        except GraphQueryError as error:
            # FalkorDB has no IF NOT EXISTS: an existing index is the goal reached.
            if "already indexed" not in str(error):
                raise

    def _drop_index(self, file_name: str) -> bool:
        """Drop the index a schema file creates, if present; whether it was."""
        topic = index_of(file_name)
        label, prop = _CANDIDATE_INDEXES[topic]
        indexes = self.run_text(statement("index_list", "falkordb"), {})
        if not any(row["label"] == label and prop in row["properties"] for row in indexes):
            return False
        self.run_text(statement(f"drop_{topic}_index", "falkordb"), {})
        return True

    def _rewrite_file(self) -> None:
        """Rewrite the append-only file now: its base still holds the dropped index, which
        the next start would build again before the file's tail drops it. A rewrite already
        under way is left to finish (it writes the graph as it is)."""
        try:
            self._db.connection.execute_command("BGREWRITEAOF")
        except redis.exceptions.ResponseError:
            pass  # one is under way or scheduled
        except (redis.exceptions.RedisError, OSError) as error:
            raise _translate(error) from error

    def ensure_vector_index(self, dimension: int) -> None:
        if self._vector_index:
            return
        with self._write_lock:
            indexes = self.run_text(statement("index_list", "falkordb"), {})
            exists = any(
                row["label"] == "Drawer" and "VECTOR" in (row["types"].get("embedding") or [])
                for row in indexes
            )
            if not exists:
                self.run_text(
                    statement("create_vector_index", "falkordb"), {"dimension": dimension}
                )
                self._wait_until_operational()
            self._vector_index = True

    def _create_constraint(self, label: str, properties: tuple[str, ...]) -> None:
        try:
            self._graph.create_node_unique_constraint(label, *properties)
        except redis.exceptions.ResponseError as error:
            if "already exists" not in str(error):
                raise _translate(error) from error

    def _constraints(self) -> set[tuple[str, tuple[str, ...]]]:
        """(label, sorted properties): FalkorDB lists a constraint's properties in any order."""
        rows = self.run_text(statement("constraint_list", "falkordb"), {})
        return {(row["label"], tuple(sorted(row["properties"]))) for row in rows}

    def _wait_until_operational(self, seconds: float = INDEX_WAIT_SECONDS) -> None:
        """Until indexes are OPERATIONAL queries silently scan labels (design §2.1)."""
        deadline = time.monotonic() + seconds
        while True:
            indexes = self.run_text(statement("index_list", "falkordb"), {})
            constraints = self.run_text(statement("constraint_list", "falkordb"), {})
            statuses = {row["status"] for row in indexes + constraints}
            if "FAILED" in statuses:
                raise GraphQueryError("a FalkorDB constraint failed to build", statuses)
            if statuses <= {"OPERATIONAL"}:
                return
            if time.monotonic() > deadline:
                raise GraphUnavailable("FalkorDB indexes did not become operational in time")
            time.sleep(0.05)

    def wipe(self) -> None:
        """Delete every node and edge (tests only); the schema stays, but the vector index is
        dropped: FalkorDB's keeps deleted vectors, which then crowd k-NN answers."""
        with self._write_lock:
            self.run_text(statement("wipe_graph", "falkordb"), {})
            if self._vector_index:
                self.run_text(statement("drop_vector_index", "falkordb"), {})
                self._vector_index = False
                self._wait_until_vector_index_gone()

    def _wait_until_vector_index_gone(self) -> None:
        """FalkorDB drops an index in the background and lists it meanwhile: a vector index
        created next would be taken for it, then vanish."""
        deadline = time.monotonic() + INDEX_WAIT_SECONDS
        while any(
            row["label"] == "Drawer" and "VECTOR" in (row["types"].get("embedding") or [])
            for row in self.run_text(statement("index_list", "falkordb"), {})
        ):
            if time.monotonic() > deadline:
                raise GraphUnavailable("FalkorDB did not drop the vector index in time")
            time.sleep(0.05)

    def close(self) -> None:
        self._db.connection.close()
