"""Errors raised by the graph layer; the HTTP envelope uses each class's `code`.

    CastlegraphError                 code, message, details
    ├── GraphError
    │   ├── GraphUnavailable         graph::unavailable (retryable): the database is unreachable
    │   ├── ConstraintViolation      a uniqueness constraint refused a write (retryable: re-read)
    │   └── GraphQueryError          the database refused a statement (a bug, never user input)
    ├── DrawerNotFound               palace::drawer_not_found
    ├── DrawerNameTaken              palace::drawer_name_taken
    ├── DrawerSuperseded             palace::drawer_superseded
    └── DataDirInUse                 graph::data_dir_in_use  another service owns the data directory

Driver errors (redis, neo4j) are translated once, at the store boundary, into these.
"""

from typing import Any, ClassVar


class CastlegraphError(Exception):
    code: ClassVar[str] = "internal::error"
    status: ClassVar[int | None] = None
    """HTTP status when the code alone does not decide it (input::invalid is 400 or 422)."""

    def __init__(self, message: str, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def is_retryable(self) -> bool:
        return False


class GraphError(CastlegraphError):
    code = "graph::error"


class GraphUnavailable(GraphError):
    code = "graph::unavailable"

    def is_retryable(self) -> bool:
        return True


class ConstraintViolation(GraphError):
    code = "graph::constraint_violation"

    def is_retryable(self) -> bool:
        return True


class GraphQueryError(GraphError):
    code = "graph::query_failed"


class DrawerNotFound(CastlegraphError):
    code = "palace::drawer_not_found"

    def __init__(self, drawer_id: str) -> None:
        super().__init__(f"no drawer with id {drawer_id!r}", {"drawer": drawer_id})


class DrawerNameTaken(CastlegraphError):
    code = "palace::drawer_name_taken"

    def __init__(self, wing: str, room: str, name: str, holder: str) -> None:
        super().__init__(
            f"the name {name!r} is held by another current drawer of {wing}/{room}",
            {"wing": wing, "room": room, "name": name, "drawer": holder},
        )


class DrawerSuperseded(CastlegraphError):
    code = "palace::drawer_superseded"

    def __init__(self, drawer_id: str, successor: str | None) -> None:
        super().__init__(
            f"drawer {drawer_id!r} was superseded and cannot be superseded again",
            {"drawer": drawer_id, "superseded_by": successor},
        )


class DataDirInUse(CastlegraphError):
    code = "graph::data_dir_in_use"
