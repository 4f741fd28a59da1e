"""With `dedup.person_typos_onto_known_names = true` (the default), a typo on a kind that
holds people converges only onto a known name; any other one-edit pair gets a review link
`unknown_name` (design §5.3). One app with that setting written out for the module, and the
default app."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_settings, running_app, wiped
from tests.support.entity_http import candidates, see_all


@pytest.fixture(scope="module")
def opted_in_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir = tmp_path_factory.mktemp("known-names-service")
    dedup = {"person_typos_onto_known_names": True}
    with running_app(app_settings(data_dir, dedup=dedup)) as c:
        yield c


@pytest.fixture
def opted_in(opted_in_app: TestClient) -> TestClient:
    return wiped(opted_in_app)


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("Anna Kołak", "Anna Kołpak"),  # two rare surnames no list knows
        ("Sandra Millr", "Sandra Miller"),  # a misspelling stored first
    ],
)
def test_a_person_one_edit_from_an_unknown_name_gets_a_link(
    opted_in: TestClient, older: str, newer: str
) -> None:
    first, second = see_all(opted_in, "person", older, newer)
    assert second["created"] is True
    assert second["entity"]["id"] != first["entity"]["id"]
    assert second["possibly_same_as"] == [first["entity"]["id"]]
    [link] = candidates(opted_in, second["entity"]["id"])
    assert (link["entity"]["id"], link["reason"], link["distance"]) == (
        first["entity"]["id"],
        "unknown_name",
        1,
    )


def test_a_person_typo_of_a_known_name_and_a_tool_typo_still_converge(
    opted_in: TestClient,
) -> None:
    person = see_all(opted_in, "person", "Sandra Miller", "Sandra Millr")
    tool = see_all(opted_in, "tool", "Anna Kołak", "Anna Kołpak")
    for first, second in (person, tool):
        assert second["entity"]["id"] == first["entity"]["id"]
        assert second["observation"]["rule"] == "typo"


def test_by_default_a_person_one_edit_from_an_unknown_name_gets_a_link(client: TestClient) -> None:
    """The stricter rule is the default (`bench quality`: precision ≥ 0.995 needs it), and the
    name lists know the given names of many countries: two real names stay two people."""
    for older, newer, reason in (
        ("Anna Kołak", "Anna Kołpak", "unknown_name"),
        ("Jayden Smith", "Jayde Smith", "known_words"),
    ):
        first, second = see_all(client, "person", older, newer)
        assert second["entity"]["id"] != first["entity"]["id"]
        [link] = candidates(client, second["entity"]["id"])
        assert (link["entity"]["id"], link["reason"]) == (first["entity"]["id"], reason)
