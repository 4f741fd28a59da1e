"""Errors raised by the graph layer, each with its stable `code`, under `resolver.errors`' root.

`GraphError` and its subclasses are the database's failures, the others the use cases'
refusals; the tree is drawn above `GraphError`. What a door makes of each is the door's own
table, in `api`: the graph layer only says what went wrong and whether it is the caller's
answer (`bug` False) or the service's fault.
"""

from castlegraph.resolver.errors import CastlegraphError, ErrorCode

CONFLICT = "a concurrent write claimed the same unique key; retry the request"


# CastlegraphError (resolver.errors)   an answer (bug False) or the service's fault (bug True)
# ├── GraphError                   graph::error, bug
# │   ├── GraphUnavailable         graph::unavailable (retryable): unreachable, busy, timeout
# │   ├── ConstraintViolation      graph::constraint_violation (retryable): a concurrent write
# │   ├── GraphQueryError          graph::query_failed, bug: a refused statement
# │   ├── UnindexedSearch          internal::error, bug: a search the database has no index for
# │   ├── MigrationFailed          graph::migration_failed (retryable if its cause is)
# │   ├── UnsupportedServer        graph::unsupported_server: a Neo4j older than 5.23
# │   └── GraphMisconfigured       graph::misconfigured, bug: credentials, URI or TLS refused
# ├── DataDirInUse                 graph::data_dir_in_use, bug: another service owns the directory
# ├── DrawerNotFound               palace::drawer_not_found
# ├── DrawerNameTaken              palace::drawer_name_taken
# ├── DrawerSuperseded             palace::drawer_superseded
# ├── EntityNotFound               graph::entity_not_found
# ├── ReviewLinkNotFound           graph::review_link_not_found
# ├── AliasTaken                   graph::alias_taken: the spelling is another entity's
# ├── JobNotFound                  jobs::job_not_found
# ├── TooManyJobs                  service::busy (retryable): the caller's queue is full
# ├── NothingToExport              export::not_found (the CLI's export only)
# ├── InvalidCursor                input::invalid: a page cursor this service never returned
# ├── InvalidVector                input::invalid: an embedding the index cannot hold
# ├── SelfVerdict                  input::invalid: a verdict pairing a drawer with itself
# └── UnknownDrawers               input::invalid: mentions of drawers that do not exist


class GraphError(CastlegraphError):
    """The database failed. Driver errors (redis, neo4j) are translated once, at the store
    boundary, into this tree. The driver's own text names hosts, ports and query fragments, so
    the translated error's message is castlegraph's own words and the driver error stays its
    `__cause__`, which `log_text` adds for the log only (design §7: never a raw database message
    to the client)."""

    code = ErrorCode.GRAPH_ERROR


class GraphUnavailable(GraphError):
    code = ErrorCode.GRAPH_UNAVAILABLE
    bug = False

    def is_retryable(self) -> bool:
        return True


class ConstraintViolation(GraphError):
    """Two writers raced for one unique key (a MERGE's check saw neither): a conflict the
    caller settles by retrying, when its write finds the other's node and converges."""

    code = ErrorCode.GRAPH_CONSTRAINT_VIOLATION
    bug = False

    def is_retryable(self) -> bool:
        return True


class GraphQueryError(GraphError):
    code = ErrorCode.GRAPH_QUERY_FAILED


class UnindexedSearch(GraphError):
    """A candidate search sent to the database while the service's memory serves that index
    and the database keeps none (design §5.4): answered, it would read every node of the label
    until the query timed out. A caller that should have passed the in-memory index did not, a
    bug of castlegraph's and never the client's: refused at once."""


class MigrationFailed(GraphError):
    code = ErrorCode.GRAPH_MIGRATION_FAILED
    bug = False

    def is_retryable(self) -> bool:
        """As retryable as what stopped it: a database still starting, not a bad statement."""
        cause = self.__cause__
        return isinstance(cause, CastlegraphError) and cause.is_retryable()


class UnsupportedServer(GraphError):
    """The database server is a version castlegraph's statements do not run on (a Neo4j
    older than 5.23): refused at start, naming the version found and the one needed, instead of
    a statement refused later as a bug. Not retryable: waiting does not upgrade the server."""

    code = ErrorCode.GRAPH_UNSUPPORTED_SERVER
    bug = False


class GraphMisconfigured(GraphError):
    """The Neo4j settings cannot work: the credentials were refused, the URI is not one the
    driver can use, or TLS failed (a certificate this machine does not trust). `serve` refuses
    to start and `doctor` fails with the message, which names the setting to check and the URI
    without its user info, never a password; not retried, since waiting corrects no setting.
    The service's fault, not the caller's: a client is only told the service failed (the
    message names the database's address, which clients are not shown)."""

    code = ErrorCode.GRAPH_MISCONFIGURED


class DataDirInUse(CastlegraphError):
    code = ErrorCode.GRAPH_DATA_DIR_IN_USE


class DrawerNotFound(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_NOT_FOUND
    bug = False

    def __init__(self, drawer_id: str) -> None:
        super().__init__(f"no drawer with id {drawer_id!r}", {"drawer": drawer_id})


class DrawerNameTaken(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_NAME_TAKEN
    bug = False

    def __init__(self, wing: str, room: str, name: str, holder: str | None) -> None:
        """`holder` None: the holder is another agent's diary entry, whose id is not shown."""
        details = {"wing": wing, "room": room, "name": name}
        super().__init__(
            f"the name {name!r} is held by another current drawer of {wing}/{room}",
            details if holder is None else details | {"drawer": holder},
        )


class DrawerSuperseded(CastlegraphError):
    code = ErrorCode.PALACE_DRAWER_SUPERSEDED
    bug = False

    def __init__(
        self, drawer_id: str, successor: str | None, refused: str = "superseded again"
    ) -> None:
        """`refused`: what a superseded drawer cannot be (superseded again, judged)."""
        super().__init__(
            f"drawer {drawer_id!r} was superseded and cannot be {refused}",
            {"drawer": drawer_id, "superseded_by": successor},
        )


class EntityNotFound(CastlegraphError):
    code = ErrorCode.GRAPH_ENTITY_NOT_FOUND
    bug = False

    def __init__(self, entity_id: str) -> None:
        super().__init__(f"no entity with id {entity_id!r}", {"entity": entity_id})


class ReviewLinkNotFound(CastlegraphError):
    code = ErrorCode.GRAPH_REVIEW_LINK_NOT_FOUND
    bug = False

    def __init__(self, entity_id: str, other_id: str) -> None:
        super().__init__(
            "the two entities have no POSSIBLY_SAME_AS link",
            {"entity": entity_id, "other": other_id},
        )


class AliasTaken(CastlegraphError):
    """An alias whose key is another compatible entity's name or alias key (design §11):
    recording it would make two entities answer one spelling, which only the review verdict
    `same` may settle."""

    code = ErrorCode.GRAPH_ALIAS_TAKEN
    bug = False

    def __init__(self, alias: str, entity_id: str, holder: str) -> None:
        super().__init__(
            f"{alias!r} is a spelling of another entity; settle the pair with the verdict "
            "`same` instead",
            {"entity": holder, "alias": alias, "target": entity_id},
        )


class JobNotFound(CastlegraphError):
    code = ErrorCode.JOBS_JOB_NOT_FOUND
    bug = False

    def __init__(self, job_id: str) -> None:
        super().__init__(f"no job with id {job_id!r}", {"job": job_id})


class TooManyJobs(CastlegraphError):
    """The caller has `api.max_queued_jobs` jobs queued or running (design §8.1): a new one
    waits until one of those ends, so it is retryable."""

    code = ErrorCode.SERVICE_BUSY
    bug = False

    def __init__(self, queued: int, limit: int) -> None:
        super().__init__(
            f"{queued} jobs of this caller are already queued or running (at most {limit}, "
            "api.max_queued_jobs); retry once one has ended",
            {"queued": queued, "max_queued_jobs": limit},
        )

    def is_retryable(self) -> bool:
        return True


class NothingToExport(CastlegraphError):
    """No entity or room by that name: the export has nothing to write."""

    code = ErrorCode.EXPORT_NOT_FOUND
    bug = False


class InvalidCursor(CastlegraphError):
    """A page cursor that does not decode: only the cursors a page returned are accepted."""

    code = ErrorCode.INPUT_INVALID
    bug = False

    def __init__(self, cursor: str) -> None:
        super().__init__("the cursor is not one this service returned", {"cursor": cursor})


class InvalidVector(CastlegraphError):
    """Checked before the write: FalkorDB would silently accept a vector of another length."""

    code = ErrorCode.INPUT_INVALID
    bug = False


class SelfVerdict(CastlegraphError):
    """Both sides of a verdict are one drawer (the same id, or names that find it): a drawer is
    never a duplicate of itself, and the edge would be a loop."""

    code = ErrorCode.INPUT_INVALID
    bug = False

    def __init__(self, drawer_id: str) -> None:
        super().__init__(
            f"a verdict needs two drawers; a and b are both drawer {drawer_id!r}",
            {"drawer": drawer_id},
        )


class UnknownDrawers(CastlegraphError):
    """A mention batch is refused whole; `details` lists each mention whose drawer is missing."""

    code = ErrorCode.INPUT_INVALID
    bug = False

    def __init__(self, indexes: dict[int, str]) -> None:
        super().__init__(
            "mentions refer to drawers that do not exist",
            [
                {"index": i, "drawer": d, "error": ErrorCode.PALACE_DRAWER_NOT_FOUND}
                for i, d in indexes.items()
            ],
        )
