"""A write that loses a race for a unique key is a retryable 409 conflict, not a 500 bug.

The driver's words (the label, the constraint) stay the error's cause,
for the log; the message is castlegraph's own on both backends.
"""

from typing import Any

import pytest

from castlegraph.api.http.statuses import http_status
from castlegraph.graph.errors import CONFLICT, ConstraintViolation

CREATE_WING = "CREATE (:Wing {name: $name})"  # bypasses MERGE, as a lost race would


def test_a_duplicate_unique_key_is_a_retryable_conflict(store: Any) -> None:
    store.run_text(CREATE_WING, {"name": "raced-wing"})
    with pytest.raises(ConstraintViolation) as caught:
        store.run_text(CREATE_WING, {"name": "raced-wing"})
    error = caught.value
    assert (http_status(type(error)), error.is_retryable(), error.message) == (409, True, CONFLICT)
    assert error.details is None
    assert "Wing" not in error.message
    assert "Wing" in error.log_text()
