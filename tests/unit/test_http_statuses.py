"""The HTTP status of every error class, pinned: what clients get (design §7).

The statuses are the HTTP door's (`api.http.statuses`), resolved along each class's MRO; this
table is the one clients have always been answered with, so moving the statuses out of the
error classes changed none of them.
"""

import pytest

from castlegraph.api.errors import ApiError
from castlegraph.api.http.statuses import http_status
from castlegraph.resolver.errors import CastlegraphError
from tests.support.exceptions import project_exception_classes

STATUS_BY_CLASS = {
    "resolver.errors.CastlegraphError": 500,
    "graph.errors.GraphError": 500,
    "graph.errors.GraphUnavailable": 503,
    "graph.backends.embedded._Stalled": 503,
    "graph.backends.embedded._ExitedAtStart": 503,
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
    "graph.errors.UnsupportedServer": 503,
    "graph.errors.GraphMisconfigured": 500,
    "graph.review.embeddings._FirstVectorRace": 500,
    "graph.entities.kind_locks._UnheldKinds": 500,
    "resolver.errors.EmptyLabel": 400,
    "resolver.core.NativeCoreUnavailable": 500,
    "api.errors.ApiError": 500,
    "api.errors.InvalidInput": 400,
    "api.errors.CliInputError": 400,
    "api.errors.InvalidRequest": 422,
    "api.errors.InvalidPath": 400,
    "api.errors.Unauthorized": 401,
    "api.errors.Forbidden": 403,
    "api.errors.IdempotencyKeyReused": 409,
    "api.errors.PayloadTooLarge": 413,
    "api.errors.ServiceBusy": 503,
    "api.errors.ServiceUnreachable": 503,
    "api.errors.UnexportableValue": 500,
}
"""`module.Class` (without `castlegraph.`) -> the status its errors are answered with."""

CARRY_THEIR_OWN = {"api.client.http.RemoteError"}
"""The HTTP client's re-raise of a service's envelope: its status is the answer's."""


def _name(kind: type[BaseException]) -> str:
    return f"{kind.__module__.removeprefix('castlegraph.')}.{kind.__qualname__}"


ERROR_CLASSES = {
    _name(kind): kind
    for kind in project_exception_classes()
    if issubclass(kind, CastlegraphError) and _name(kind) not in CARRY_THEIR_OWN
}


def test_the_table_names_every_error_class_of_the_project() -> None:
    assert sorted(ERROR_CLASSES) == sorted(STATUS_BY_CLASS)


@pytest.mark.parametrize(("name", "status"), sorted(STATUS_BY_CLASS.items()))
def test_each_error_class_keeps_its_status(name: str, status: int) -> None:
    assert http_status(ERROR_CLASSES[name]) == status


@pytest.mark.parametrize("name", sorted(set(STATUS_BY_CLASS) - {"api.errors.ApiError"}))
def test_a_class_is_a_bug_exactly_when_it_is_answered_500(name: str) -> None:
    """`bug` is what the doors read; 500 is what HTTP made of it before the two were apart.
    (`ApiError` is only a base: never raised, never a bug.)"""
    kind = ERROR_CLASSES[name]
    assert kind.bug == (http_status(kind) == 500)
    assert not issubclass(kind, ApiError) or not kind.bug
