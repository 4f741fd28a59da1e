"""The HTTP status of every error class, pinned: what clients get (design §7).

The statuses are the HTTP door's (`api.http.statuses`), resolved along each class's MRO; this
table is the one clients have always been answered with, so moving the statuses out of the
error classes changed none of them.
"""

import pytest

from castlegraph.graph.errors import CastlegraphError
from tests.support.exceptions import project_exception_classes

STATUS_BY_CLASS = {
    "graph.errors.CastlegraphError": 500,
    "graph.errors.GraphError": 500,
    "graph.errors.GraphUnavailable": 503,
    "graph.backends.embedded._Stalled": 503,
    "graph.errors.ConstraintViolation": 409,
    "graph.errors.GraphQueryError": 500,
    "graph.errors.UnindexedSearch": 500,
    "graph.errors.MigrationFailed": 503,
    "graph.errors.DataDirInUse": 500,
    "graph.errors.DrawerNotFound": 404,
    "graph.errors.DrawerNameTaken": 409,
    "graph.errors.DrawerSuperseded": 409,
    "graph.errors.EntityNotFound": 404,
    "graph.errors.ReviewLinkNotFound": 404,
    "graph.errors.AliasTaken": 409,
    "graph.errors.JobNotFound": 404,
    "graph.errors.TooManyJobs": 429,
    "graph.errors.NothingToExport": 404,
    "graph.errors.InvalidCursor": 400,
    "graph.errors.InvalidVector": 422,
    "graph.errors.SelfVerdict": 422,
    "graph.errors.UnknownDrawers": 422,
    "resolver.errors.EmptyLabel": 400,
    "api.errors.ApiError": 500,
    "api.errors.InvalidInput": 400,
    "api.errors.CliInputError": 400,
    "api.errors.InvalidRequest": 422,
    "api.errors.InvalidPath": 400,
    "api.errors.BlankLabel": 400,
    "api.errors.Unauthorized": 401,
    "api.errors.Forbidden": 403,
    "api.errors.IdempotencyKeyReused": 409,
    "api.errors.PayloadTooLarge": 413,
    "api.errors.ServiceBusy": 503,
    "api.errors.ServiceUnreachable": 503,
    "api.errors.UnexportableValue": 500,
}
"""`module.Class` (without `castlegraph.`) -> the status its errors are answered with."""

CARRY_THEIR_OWN = {"api.errors.RemoteError"}
"""The HTTP client's re-raise of a service's envelope: its status is the answer's."""


def _name(kind: type[BaseException]) -> str:
    return f"{kind.__module__.removeprefix('castlegraph.')}.{kind.__qualname__}"


def _answered(kind: type[BaseException]) -> bool:
    """An error class a door answers with: in the tree, or carrying a status of its own."""
    return issubclass(kind, CastlegraphError) or hasattr(kind, "status")


ERROR_CLASSES = {
    _name(kind): kind
    for kind in project_exception_classes()
    if _answered(kind) and _name(kind) not in CARRY_THEIR_OWN
}


def test_the_table_names_every_error_class_of_the_project() -> None:
    assert sorted(ERROR_CLASSES) == sorted(STATUS_BY_CLASS)


@pytest.mark.parametrize(("name", "status"), sorted(STATUS_BY_CLASS.items()))
def test_each_error_class_keeps_its_status(name: str, status: int) -> None:
    assert ERROR_CLASSES[name].status == status  # type: ignore[attr-defined]
