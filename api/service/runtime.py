"""The service's long-lived state: settings, the database backend and its readiness.

It lives as long as the app (FastAPI lifespan), never one per request. The embedded database
starts in the foreground (a failure there is fatal and clear); Neo4j is retried in the
background while `/api/health` answers 503, so a service started before its database recovers.
"""

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

from castlegraph.api.service import heap
from castlegraph.api.service.embedder import EmbeddingWorker, make_provider
from castlegraph.api.service.heavy_reads import HeavyReads
from castlegraph.api.service.jobs.runner import JobRunner
from castlegraph.api.service.lexicon import Lexicon, PersonNames
from castlegraph.api.service.nicknames import load_nicknames
from castlegraph.api.service.settings import Settings, scrub
from castlegraph.graph.backends.opener import Backend, Neo4jTarget, open_backend
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.drawers.drawer_request import DedupPolicy
from castlegraph.graph.errors import GraphUnavailable
from castlegraph.graph.idempotency import purge_expired
from castlegraph.graph.indexes.drawer_index import DrawerIndex
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.indexes.sequenced_index import SequencedIndex
from castlegraph.graph.jobs import Job
from castlegraph.graph.review.embeddings import missing_embeddings, stored_dimension
from castlegraph.graph.schema.migration_steps import fill_entity_keys
from castlegraph.graph.schema.migrations import migrate
from castlegraph.resolver import core
from castlegraph.resolver.entity_keys import normalize_kind
from castlegraph.resolver.entity_rules import NameGuard
from castlegraph.resolver.errors import CastlegraphError

log = logging.getLogger("castlegraph")


def _now() -> datetime:
    return datetime.now(UTC)


RETRY_SECONDS = 2.0

Indexed = TypeVar("Indexed", bound=SequencedIndex)


class Runtime:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.policy = DedupPolicy(settings.dedup.enabled, settings.dedup.near_threshold)
        self.fuzzy = settings.dedup.entity_fuzzy
        self.lexicon = Lexicon()
        self.known_word: Callable[[str], bool] = self.lexicon
        self.person_names = PersonNames()
        self.names = NameGuard(
            self.person_names,
            frozenset(normalize_kind(k) for k in settings.dedup.person_kinds),
            typos_onto_known_names=settings.dedup.person_typos_onto_known_names,
            nicknames=load_nicknames(),
        )
        self.heavy_reads = HeavyReads(
            settings.api.heavy_reads, settings.api.heavy_read_wait_seconds
        )
        """`find_duplicates` and `hygiene` at once, over HTTP and MCP alike."""
        self.backend: Backend | None = None
        self.jobs: JobRunner | None = None
        self.embedder: EmbeddingWorker | None = None
        self.migrations_applied = 0
        self.entity_index: EntityIndex | None = None
        """Entity candidates in memory (design §5.4); until built, probes go to the database."""
        self.drawer_index: DrawerIndex | None = None
        """Drawer candidates in memory (design §4.5); until built, the database's index answers."""
        self.clock: Callable[[], datetime] = _now
        """The time idempotency keys are stamped and expired by; tests move it forward."""
        self._ready = threading.Event()
        self._stopping = threading.Event()
        self._retry: threading.Thread | None = None
        self._threads: list[threading.Thread] = []
        self.started = False
        self.core: core.Running | None = None
        """The core the rules run on (`resolver.core`), chosen at `start` from `dedup.core`."""

    @property
    def neo4j(self) -> Neo4jTarget | None:
        graph = self.settings.graph
        if not graph.neo4j_uri:
            return None
        return Neo4jTarget(
            graph.neo4j_uri,
            graph.neo4j_user,
            graph.neo4j_password.get_secret_value(),
            graph.neo4j_database,
            graph.neo4j_retry_seconds,
            graph.neo4j_memory_indexes_only,
        )

    def start(self) -> None:
        self.started = True
        self.core = core.choose(self.settings.dedup.core)  # `native` without it: no start
        log.info(
            "rules' core: %s (core = %s)",
            self.core,
            self.settings.dedup.core,
            extra={"core": self.core.name, "core_version": self.core.version},
        )
        if self.fuzzy:
            threading.Thread(target=self._warm_lexicons, name="lexicon", daemon=True).start()
        if self.neo4j is None:
            self._connect_embedded()
            self._watch_embedded()
            return
        why = self._connect_or_why()
        if why is not None:
            log.warning(
                "Neo4j is not reachable yet (%s); retrying every %.0f s", why, RETRY_SECONDS
            )
            self._retry = threading.Thread(
                target=self._retry_loop, name="neo4j-connect", daemon=True
            )
            self._retry.start()

    def _warm_lexicons(self) -> None:
        """One after the other: each is a child process's work on the other core."""
        self.lexicon.warm()
        self.person_names.warm()

    def _connect_embedded(self) -> None:
        """`_connect`, tried once more when the embedded database failed a statement of the
        start in a way waiting may mend: FalkorDB 4.16 has, rarely, left its schema's
        `CREATE INDEX` unanswered on a child just started (a deadlock of its own). The failed
        start has stopped that child; the next one reads the same file, and the schema and
        migrations are idempotent."""
        why = self._connect_or_why()
        if why is not None:
            log.warning("the embedded database failed the start (%s); starting it once more", why)
            self._connect()

    def _connect_or_why(self) -> str | None:
        """`_connect`; None once it succeeded, else why it failed in a way waiting may mend
        (scrubbed for the log). An error waiting cannot mend is raised."""
        try:
            self._connect()
        except CastlegraphError as error:
            if not error.is_retryable():
                raise
            return scrub(error.log_text(), self.settings)
        return None

    def _connect(self) -> None:
        backend = open_backend(
            self.neo4j, Path(self.settings.graph.data_dir), self.settings.graph.embedded_port
        )
        try:
            backend.store.ping()
            server = backend.store.server()  # a Neo4j too old is refused before any statement
            backend.store.apply_schema(memory_indexes=self.settings.dedup.memory_index)
            self.migrations_applied = len(migrate(backend.store))
            self._fill_entity_keys(backend.store)
            purge_expired(backend.store, self.clock())
        except Exception:
            backend.close()
            raise
        self.backend = backend
        self._start_entity_index(backend.store)
        self._start_drawer_index(backend.store)
        self._start_embeddings(backend.store)
        self.jobs = JobRunner(
            lambda: self.store,
            self.policy,
            self.written,
            self._job_owner(),
            drawer_index=self.drawer_index,
            lease_seconds=self.settings.graph.job_lease_seconds,
        )
        self.jobs.start()
        self._ready.set()
        log.info("graph ready: %s, %s", backend.description, server)

    def _fill_entity_keys(self, store: GraphStore) -> None:
        """Where the database's entity index is back after a run that kept it in memory
        (FalkorDB with `dedup.memory_index` off), the entities written meanwhile get their
        keys before any search needs them (design §5.4). Neo4j never leaves them out."""
        if store.dialect == "falkordb" and store.stores_entity_keys:
            filled = fill_entity_keys(store)
            if filled:
                log.info("entities given their database index keys: %d", filled)

    def _waited_for(self, index: Indexed, store: GraphStore) -> Indexed:
        """Where the database keeps no candidate index of its own while the in-memory ones
        serve (FalkorDB), searches wait for the build, up to the configured bound."""
        index.database_answers = not store.memory_replaces_indexes
        index.wait_seconds = self.settings.dedup.memory_index_wait_seconds
        return index

    def _start_entity_index(self, store: GraphStore) -> None:
        """The in-memory entity candidate index (design §5.4): until it is ready, the
        database's index answers the probes, or on FalkorDB the probes wait for it."""
        if not self.settings.dedup.memory_index:
            return
        index = self.entity_index = self._waited_for(EntityIndex(), store)

        def build() -> str | None:
            stats = index.build(store, stopping=self._stopping.is_set)
            heap.freeze()  # what start-up left alive, out of the collector's generations
            if stats is None:
                return None
            return (
                f"{stats.entities} entities, {stats.entries} keys, built in {stats.seconds:.1f} s"
            )

        self._build_in_background(index, store, build)

    def _start_drawer_index(self, store: GraphStore) -> None:
        """The in-memory drawer candidate index (design §4.5): until it is ready, writes search
        the database's term index, or on FalkorDB wait for it."""
        if not self.settings.dedup.memory_index:
            return
        index = self.drawer_index = self._waited_for(DrawerIndex(), store)

        def build() -> str | None:
            stats = index.build(store, stopping=self._stopping.is_set)
            if stats is None:
                return None
            return (
                f"{stats.drawers} drawers, {stats.entries} terms, {stats.nbytes / 1e6:.1f} MB, "
                f"built in {stats.seconds:.1f} s; {self._warm(index, store)}"
            )

        self._build_in_background(index, store, build)

    def _warm(self, index: DrawerIndex, store: GraphStore) -> str:
        """Make the newest drawers known once the index is ready (`DrawerIndex.warm`); a
        failure only leaves them to be read by the writes that choose them."""
        started = time.perf_counter()
        try:
            known = index.warm(store, stopping=self._stopping.is_set)
        except Exception as error:  # the index is ready: nothing here may undo that
            return f"no drawers known ({self._reason(error)})"
        return f"{known} drawers known in {time.perf_counter() - started:.1f} s"

    def _reason(self, error: Exception) -> str:
        """What any error that stopped a background step says, fit for the log (scrubbed)."""
        reason = error.log_text() if isinstance(error, CastlegraphError) else repr(error)
        return scrub(reason, self.settings)

    def _build_in_background(
        self, index: SequencedIndex, store: GraphStore, build: Callable[[], str | None]
    ) -> None:
        """Run an in-memory index's `build` on a thread of its own, so start stays fast; it
        says what it built (None: stopped first). A failure leaves the searches on the
        database, whose index is created again first where the schema left it out (design
        §5.4); either way the build's buffers and pages go back."""

        def run() -> None:
            try:
                built = build()
            except Exception as error:  # whatever stops a build, the searches must go on
                log.warning(
                    "the in-memory %s index could not be built (%s); its candidate searches "
                    "go to the database",
                    index.name,
                    self._reason(error),
                )
                self._fall_back(index, store)
                return
            heap.trim()
            if built is not None:
                log.info("%s index in memory: %s", index.name, built)

        thread = threading.Thread(target=run, name=f"{index.name}-index", daemon=True)
        thread.start()
        self._threads.append(thread)

    def _fall_back(self, index: SequencedIndex, store: GraphStore) -> None:
        """Searches of a failed build go to the database: re-create its index (FalkorDB
        builds it from the arrays the nodes store) and write the entities' keys that were not
        stored while the memory index was to serve, then let the waiting writes go."""
        try:
            if not index.database_answers:
                log.warning("re-creating the database's %s candidate index", index.name)
                store.restore_index(index.name)
                if index is self.entity_index:  # the drawer index's arrays were kept
                    self._fill_entity_keys(store)
                log.info("the database's %s candidate index answers again", index.name)
        except CastlegraphError as error:
            log.error(
                "the database's %s candidate index could not be re-created (%s); its searches "
                "are refused until the next start",
                index.name,
                scrub(error.log_text(), self.settings),
            )
        finally:
            heap.trim()
            index.failed()

    def _job_owner(self) -> str:
        """The embedded database is this process's alone (its data directory is locked), so
        its runner's name is fixed and a restart resumes its jobs at once; on Neo4j each
        process is an instance of its own, whose jobs others take over if it dies."""
        if self.neo4j is None:
            return "embedded"
        return f"{socket.gethostname()}/{os.getpid()}/{uuid.uuid4().hex[:8]}"

    def _start_embeddings(self, store: GraphStore) -> None:
        configured = self.settings.embeddings.dimension
        dimension = configured or stored_dimension(store)
        if dimension is not None:
            store.ensure_vector_index(dimension)
        provider = make_provider(self.settings.embeddings.provider)
        if provider is not None:
            self.embedder = EmbeddingWorker(lambda: self.store, provider, configured)
            self.embedder.start(backlog=missing_embeddings(store))

    def written(self, drawer_id: str) -> None:
        """A drawer was stored: compute its embedding in the background, if a provider is set."""
        if self.embedder is not None:
            self.embedder.enqueue(drawer_id)

    def _watch_embedded(self) -> None:
        """Restart the embedded database if it dies; requests meanwhile get 503."""
        embedded = self.backend.embedded if self.backend else None
        if embedded is not None:
            watchdog = threading.Thread(
                target=embedded.watch, args=(self._stopping,), name="falkordb-watch", daemon=True
            )
            watchdog.start()
            self._threads.append(watchdog)

    def _retry_loop(self) -> None:
        """Until Neo4j answers and the start completes; an error that waiting cannot mend (a
        statement the server refuses) ends the loop with its reason, health staying 503."""
        while not self._stopping.wait(RETRY_SECONDS):
            try:
                self._connect()
                return
            except CastlegraphError as error:
                reason = scrub(error.log_text(), self.settings)
                if not error.is_retryable():
                    log.error("Neo4j refused castlegraph's start: %s", reason)
                    return
                log.warning("Neo4j still unreachable: %s", reason)

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    @property
    def store(self) -> GraphStore:
        if self.backend is None:
            raise GraphUnavailable("the graph database is not ready yet")
        return self.backend.store

    def submit(self, job: Job) -> None:
        if self.jobs is None:
            raise GraphUnavailable("the graph database is not ready yet")
        self.jobs.submit(job.id)

    def stop(self) -> None:
        self._stopping.set()
        for thread in self._threads:
            thread.join(5)
        if self.jobs is not None:
            self.jobs.stop()
        if self.embedder is not None:
            self.embedder.stop()
        if self.backend is not None:
            description = self.backend.description
            self.backend.close()
            self.backend = None
            log.info("graph closed: %s", description)
        self._ready.clear()
