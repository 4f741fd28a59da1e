"""`GraphStore` on Neo4j 5 through the official driver, with managed transactions only.

Every use case is one `execute_read` / `execute_write` unit, so a `neo4j://` routing URI sends
reads to followers and writes to the leader, and the driver retries what is retryable.
"""

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any, TypeVar, cast

import neo4j
import neo4j.exceptions

from castlegraph.graph.backends.neo4j_uri import checked_uri, refused_connection, refused_driver
from castlegraph.graph.backends.observe import observed_write, timed_statement
from castlegraph.graph.backends.opener import NEO4J_RETRY_SECONDS
from castlegraph.graph.backends.queries import (
    MEMORY_SERVED,
    SEARCHES_OF_SERVED,
    Dialect,
    index_of,
    schema_statement,
    schema_statements,
    statement,
)
from castlegraph.graph.backends.server import Server, require_neo4j
from castlegraph.graph.backends.store import Row
from castlegraph.graph.errors import (
    CONFLICT,
    ConstraintViolation,
    GraphMisconfigured,
    GraphQueryError,
    GraphUnavailable,
    UnindexedSearch,
)

T = TypeVar("T")
_UNION = re.compile(r"^\s*UNION\b", re.MULTILINE)
"""A statement of several parts, which a leading lock would not lead (`locked_statement`)."""


def locked_statement(text: str) -> str:
    """`text` led by `take_lock` (on `$locked_scope`): the lock is held before the statement
    reads anything (the count ends the lock's rows first), in one round trip where two took
    ~2.5 ms more of a drawer write's ~11 (`bench.profile_neo4j`). Not for a `UNION`, whose
    later parts the lock would not lead."""
    if _UNION.search(text):
        raise ValueError("a UNION statement cannot be led by its lock")
    return f"{statement('take_lock', 'neo4j')}WITH count(held) AS locks_held\n{text}"


TX_TIMEOUT_SECONDS = 30.0


UNAVAILABLE = (
    neo4j.exceptions.ServiceUnavailable,  # no server answers
    neo4j.exceptions.SessionExpired,
    neo4j.exceptions.DatabaseUnavailable,  # the server answers, the database is still starting
    neo4j.exceptions.TransientError,  # retried by the driver already; retrying later may help
)


TIMED_OUT = ("TransactionTimedOut", "LockClientStopped")
"""Codes of a transaction ended by its timeout, which counts a lock's wait too: a write queued
behind long ones. Worth a retry, so not a bug: ClientError though they are, the driver does
not retry them itself."""


def _translate(error: Exception, shown: str, user: str) -> Exception:
    """In castlegraph's words only: the driver's text (hosts, statements) stays the cause.
    `shown` is the URI without user info, `user` the one who logs in: a refused login or TLS
    handshake names them."""
    refused = refused_connection(error, shown, user)
    if refused is not None:
        return refused
    if isinstance(error, UNAVAILABLE):
        return GraphUnavailable("Neo4j is unavailable or busy; retry later")
    code = getattr(error, "code", None) or ""
    if any(part in code for part in TIMED_OUT):
        return GraphUnavailable(f"Neo4j timed the transaction out (locks busy?): {code}")
    if isinstance(error, neo4j.exceptions.ConstraintError):
        return ConstraintViolation(CONFLICT)
    dropped = _dropped_candidate_index(error)
    if dropped is not None:
        return GraphMisconfigured(
            f"Neo4j has no {dropped} index: an instance with graph.neo4j_memory_indexes_only"
            " dropped it, and this one searches it; set that on every instance of the database"
            " (this one restarted without it creates the index again)"
        )
    return GraphQueryError(f"Neo4j refused a statement: {error}")


def _dropped_candidate_index(error: Exception) -> str | None:
    """The candidate index a search found missing, as one dropped by an instance that serves
    them from memory (`Neo4jStore.apply_schema`) leaves it."""
    message = str(getattr(error, "message", "") or "")
    if "no such" not in message.lower():
        return None
    names = (index_of(file_name) for file_name in MEMORY_SERVED.values())
    return next((name for name in names if name in message), None)


@contextmanager
def _translated(shown: str, user: str) -> Iterator[None]:
    """Driver errors become the graph layer's, once, here: nothing above sees a neo4j class."""
    try:
        yield
    except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as error:
        raise _translate(error, shown, user) from error


def _pipelined_begin(session: neo4j.Session) -> AbstractContextManager[object]:
    """While entered, a unit's BEGIN goes out with its first statement instead of waiting for
    its own answer: one round trip less per unit (a single drawer write had four). The driver's
    `execute_query` runs its transactions this way; the switch is private to the driver, so a
    driver without it runs them as before. A failed BEGIN then fails the first statement, which
    the driver retries or raises as it would have raised the BEGIN's error."""
    switch = getattr(session, "_pipelined_begin", None)
    return nullcontext() if switch is None else cast(AbstractContextManager[object], switch)


class _Neo4jTx:
    def __init__(
        self,
        tx: neo4j.ManagedTransaction,
        refused: frozenset[str],
        settle: Callable[[str], list[Row]],
    ) -> None:
        self._tx = tx
        self._refused = refused
        """The candidate searches whose index the database does not keep (`UnindexedSearch`)."""
        self._settle = settle
        """Runs a statement in a write transaction of its own (`Neo4jStore._settled`)."""

    def run(self, name: str, /, **params: Any) -> list[Row]:
        return self._run(name, text=statement(name, "neo4j"), params=params)

    def lock(self, scope: str) -> None:
        # Writing a property of a constrained node takes its write lock until commit.
        self.run("take_lock", locked_scope=scope)

    def run_locked(self, scope: str, name: str, /, **params: Any) -> list[Row]:
        text = locked_statement(statement(name, "neo4j"))
        return self._run(name, text=text, params={**params, "locked_scope": scope})

    @timed_statement
    def _run(self, name: str, /, *, text: str, params: dict[str, Any]) -> list[Row]:
        if name in self._refused:
            raise UnindexedSearch(
                f"{name} searches a database index that is not there (every instance serves"
                " it from memory instead): refused rather than failed by the server"
            )
        result = self._tx.run(text, params)
        return [record.data() for record in result]

    def lock_all(self, scopes: Sequence[str]) -> None:
        if scopes:
            self.run("take_locks", names=list(scopes))

    def lock_scopes(self, prefix: str) -> list[str] | None:
        return [row["name"] for row in self.run("lock_names", prefix=prefix)]

    def run_settled(self, name: str, /) -> list[Row]:
        return self._run_beside(f"{name}_settled")

    @timed_statement
    def _run_beside(self, name: str, /) -> list[Row]:
        """Observed as the statement it runs (`<name>_settled`), a round trip of its own."""
        return self._settle(name)

    @property
    def shows_commits_whole(self) -> bool:
        return False


class Neo4jStore:
    dialect: Dialect = "neo4j"

    def __init__(
        self,
        uri: str,
        user: str,
        password: str,
        database: str,
        retry_seconds: float = NEO4J_RETRY_SECONDS,
        *,
        memory_indexes_only: bool = False,
    ) -> None:
        """`GraphMisconfigured` for a URI the driver cannot use; the connection (and so the
        login) waits for the first use, `ping` at start. The driver retries a transaction it
        could not run for `retry_seconds` before the error reaches the caller.
        `memory_indexes_only`: every instance on the database serves the candidate searches
        from memory (`memory_replaces_indexes`)."""
        self.memory_replaces_indexes = memory_indexes_only
        self.unindexed_searches: frozenset[str] = frozenset()
        """The candidate searches refused (`UnindexedSearch`): those of the indexes that
        `apply_schema(memory_indexes=True)` dropped, until `restore_index` makes one again."""
        self._shown = checked_uri(uri)
        self._user = user
        try:
            self._driver = neo4j.GraphDatabase.driver(
                uri,
                auth=(user, password),
                max_transaction_retry_time=retry_seconds,
                # Warnings (deprecations above all) go to the `neo4j.notifications` log; the
                # server's word on property keys that no node has yet (an empty palace) would
                # be one line per query, and the linter checks the statements' names anyway.
                notifications_min_severity=neo4j.NotificationMinimumSeverity.WARNING,
                notifications_disabled_classifications=[
                    neo4j.NotificationDisabledClassification.UNRECOGNIZED
                ],
            )
        except (neo4j.exceptions.ConfigurationError, ValueError) as error:
            raise refused_driver(self._shown) from error
        self._database = database
        self._vector_indexes: set[int] = set()
        # One bookmark manager for every session: a read sees the writes this process made
        # before it, even on a cluster whose follower has not caught up (causal consistency).
        self._bookmarks = neo4j.GraphDatabase.bookmark_manager()

    def _translated(self) -> AbstractContextManager[None]:
        return _translated(self._shown, self._user)

    def _session(self) -> neo4j.Session:
        return self._driver.session(database=self._database, bookmark_manager=self._bookmarks)

    def _execute(self, mode: str, work: Callable[[Any], T], use_case: str) -> T:
        @neo4j.unit_of_work(timeout=TX_TIMEOUT_SECONDS, metadata={"use_case": use_case})
        def unit(tx: neo4j.ManagedTransaction) -> T:
            return work(_Neo4jTx(tx, self.unindexed_searches, self._settled))

        with self._translated(), self._session() as session, _pipelined_begin(session):
            if mode == "read":
                return session.execute_read(unit)
            return session.execute_write(unit)

    def _settled(self, name: str) -> list[Row]:
        """The statement `name` in a write transaction of its own, beside the unit that asks
        (`Tx.run_settled`): it waits for a lock that a concurrent writer holds until its commit
        is applied, then reads, and commits at once, so the unit holds no more than it did."""

        @neo4j.unit_of_work(timeout=TX_TIMEOUT_SECONDS, metadata={"use_case": name})
        def unit(tx: neo4j.ManagedTransaction) -> list[Row]:
            return [record.data() for record in tx.run(statement(name, "neo4j"))]

        with self._session() as session:
            return session.execute_write(unit)

    def read(self, work: Callable[[Any], T], *, use_case: str) -> T:
        return self._execute("read", work, use_case)

    @observed_write
    def write(self, work: Callable[[Any], T], *, use_case: str) -> T:
        return self._execute("write", work, use_case)

    def ping(self) -> None:
        with self._translated():
            self._driver.verify_connectivity()

    def server(self) -> Server:
        """The server's version and edition (`dbms.components()`); `UnsupportedServer` for a
        Neo4j older than castlegraph's statements need (`graph.backends.server`)."""
        rows = self.read(lambda tx: tx.run("server_components"), use_case="server_components")
        kernel = next((row for row in rows if row["name"] == "Neo4j Kernel"), rows[0])
        versions = kernel["versions"] or [""]
        return require_neo4j(Server("Neo4j", str(versions[0]), str(kernel["edition"] or "")))

    memory_replaces_indexes: bool
    """Several instances may share one Neo4j (design §2.2), and one without the in-memory
    indexes searches the database's: so they are kept, unless the operator says every instance
    serves them from memory (`graph.neo4j_memory_indexes_only`)."""
    stores_entity_keys = True
    """Always: an instance started later without the setting finds its entity index whole."""

    def apply_schema(self, *, memory_indexes: bool = False) -> None:
        """Every constraint and index; with `memory_indexes` on a database whose instances all
        serve the candidate searches from memory, the candidate indexes are dropped instead,
        where present (an instance without the setting creates them again at its start)."""
        dropped = memory_indexes and self.memory_replaces_indexes
        served = sorted(MEMORY_SERVED.items()) if dropped else []
        with self._translated(), self._session() as session:
            for _, text in schema_statements("neo4j", without=[name for _, name in served]):
                session.run(text).consume()
            for _, file_name in served:
                session.run(statement(f"drop_{index_of(file_name)}_index", "neo4j")).consume()
            session.run(statement("await_indexes", "neo4j")).consume()
        self.unindexed_searches = frozenset().union(*(SEARCHES_OF_SERVED[t] for t, _ in served))

    def restore_index(self, served: str) -> None:
        """Create the candidate index `served` again (the in-memory one failed to build) and
        wait for it to fill from the keys and terms the nodes kept."""
        file_name = MEMORY_SERVED[served]
        text = schema_statement(file_name, "neo4j")
        with self._translated(), self._session() as session:
            session.run(text).consume()
            session.run(statement("await_indexes", "neo4j")).consume()
        self.unindexed_searches -= SEARCHES_OF_SERVED[served]

    def run_text(self, text: str, params: dict[str, Any]) -> list[Row]:
        """One auto-commit statement outside the use cases (tests and diagnosis only)."""
        with self._translated():
            records, _, _ = self._driver.execute_query(
                text, params, database_=self._database, bookmark_manager_=self._bookmarks
            )
        return [record.data() for record in records]

    def plan_operators(self, text: str, params: dict[str, Any]) -> set[str]:
        """The operators of a statement's plan, by `EXPLAIN` (tests and diagnosis only)."""
        quiet = neo4j.NotificationMinimumSeverity.OFF  # `EXPLAIN` without values warns of each
        with (
            self._translated(),
            self._driver.session(
                database=self._database, notifications_min_severity=quiet
            ) as session,
        ):
            plan = session.run(f"EXPLAIN {text}", params).consume().plan
        return _operators(plan or {})

    def profile_work(self, text: str, params: dict[str, Any]) -> int:
        """Database hits of the whole plan, running the statement (tests and diagnosis only).

        Expanding a node's edges costs hits per edge walked, so this sum shows whether a
        statement's cost follows the degree of the nodes it touches.
        """
        with self._translated(), self._session() as session:
            profile = session.run(f"PROFILE {text}", params).consume().profile
        return _db_hits(profile or {})

    def ensure_vector_index(self, dimension: int) -> None:
        """Create the vector index once per dimension and process: every vector write asks."""
        if dimension in self._vector_indexes:
            return
        with self._translated(), self._session() as session:
            session.run(
                statement("create_vector_index", "neo4j"), {"dimension": dimension}
            ).consume()
            session.run(statement("await_indexes", "neo4j")).consume()
        self._vector_indexes.add(dimension)

    def wipe(self) -> None:
        """Delete every node and edge (tests only); the schema stays."""
        with self._translated(), self._session() as session:
            session.run(statement("wipe_graph", "neo4j")).consume()

    def close(self) -> None:
        self._driver.close()


def _db_hits(operator: dict[str, Any]) -> int:
    return int(operator.get("dbHits", 0)) + sum(
        _db_hits(child) for child in operator.get("children", [])
    )


def _operators(operator: dict[str, Any]) -> set[str]:
    """Operator names without the planner's `@neo4j` suffix, of the whole plan tree."""
    name = str(operator.get("operatorType", "")).split("@")[0]
    found = {name} if name else set()
    for child in operator.get("children", []):
        found |= _operators(child)
    return found
