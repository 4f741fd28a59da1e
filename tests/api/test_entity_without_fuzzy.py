"""With `dedup.entity_fuzzy = false` the app links no typo and makes no review link; the
spelling rules still apply. One app with that setting for the module."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from tests.support.app import app_settings, running_app, wiped
from tests.support.entity_http import (
    candidates,
    see_all,
    verdict,
)


@pytest.fixture(scope="module")
def strict_app_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    data_dir = tmp_path_factory.mktemp("strict-service")
    with running_app(app_settings(data_dir, dedup={"entity_fuzzy": False})) as c:
        yield c


@pytest.fixture
def strict(strict_app_client: TestClient) -> TestClient:
    return wiped(strict_app_client)


def test_without_fuzzy_a_typo_is_a_new_entity_with_no_link(strict: TestClient) -> None:
    first, second = see_all(strict, "tool", "Kubernetes", "Kubernets")
    assert verdict(second) == (True, "new", 1.0)
    assert second["entity"]["id"] != first["entity"]["id"]
    assert second["possibly_same_as"] == []
    assert candidates(strict, first["entity"]["id"]) == []


@pytest.mark.parametrize(("older", "newer"), [("Maria", "Mario"), ("Johnson", "Johnsin")])
def test_without_fuzzy_no_review_link_is_made(strict: TestClient, older: str, newer: str) -> None:
    first, second = see_all(strict, "person", older, newer)
    assert (second["created"], second["possibly_same_as"]) == (True, [])
    assert candidates(strict, first["entity"]["id"]) == []


def test_without_fuzzy_the_dry_run_finds_no_typo(strict: TestClient) -> None:
    see_all(strict, "tool", "Kubernetes")
    body = strict.post("/api/resolve", json={"name": "Kubernets", "kind": "tool"}).json()
    assert (body["decision"], body["entity"], body["possibly_same_as"]) == ("new", None, [])


def test_without_fuzzy_the_spelling_rules_still_apply(strict: TestClient) -> None:
    first, exact, normalized = see_all(strict, "person", "Ada Lovelace", "Ada Lovelace", "ADA")
    assert verdict(exact) == (False, "exact", 1.0)
    assert normalized["created"] is True  # "ada" is another key
    upper = see_all(strict, "person", "ADA LOVELACE")[0]
    assert verdict(upper) == (False, "normalized", 0.98)
    entity_id = first["entity"]["id"]
    strict.post(f"/api/entities/{entity_id}/aliases", json={"alias": "Countess of Lovelace"})
    alias = see_all(strict, "person", "countess of lovelace")[0]
    assert verdict(alias) == (False, "alias", 0.95)
    assert {upper["entity"]["id"], alias["entity"]["id"]} == {entity_id}
