"""A client generated from the service's own `/openapi.json` (`openapi-python-client`, as a
user would run it) talks to the live service and gets typed answers: every call below must
parse into the model the document promises, with the values the service wrote. A status the
document does not declare, or a body its schema does not describe, fails here.

The client is generated once per session; each backend's app answers it over the TestClient,
which the generated client accepts as its httpx client. Select with `-m generated_client`.
"""

import importlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import BACKENDS
from tests.support.app import app_settings, backend_graph, running_app, wiped

pytestmark = pytest.mark.generated_client

TOKEN = "admin-secret"
PACKAGE = "castlegraph_generated_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture(scope="module", params=BACKENDS)
def service(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    settings = app_settings(
        tmp_path_factory.mktemp("generated-client"),
        graph=backend_graph(request),
        api={"tokens": [TOKEN]},
    )
    with running_app(settings) as client:
        # the generated client adds its token only to an httpx client it builds itself
        client.headers["Authorization"] = f"Bearer {TOKEN}"
        yield client


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The generated package, from the document a running app serves."""
    root = tmp_path_factory.mktemp("generated")
    settings = app_settings(root / "data")
    with running_app(settings) as app:
        served = app.get("/openapi.json")
    assert served.status_code == 200
    spec = root / "openapi.json"
    spec.write_text(served.text, encoding="utf-8")
    config = root / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n", encoding="utf-8")
    command = [str(GENERATOR), "generate", "--path", str(spec), "--meta", "none"]
    command += ["--output-path", str(root / PACKAGE), "--config", str(config)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr  # no skipped piece
    sys.path.insert(0, str(root))
    return importlib.import_module(PACKAGE)


def _module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def _operations(tag: str, *names: str) -> Any:
    """The operations' modules of a tag, as attributes (`entities.get_entity.sync_detailed`)."""
    for name in names:
        _module(f"api.{tag}.{name}")
    return _module(f"api.{tag}")


@pytest.fixture
def api(generated: ModuleType, service: TestClient) -> Any:
    """The generated client over the app, on an empty graph."""
    client = generated.AuthenticatedClient(
        base_url=str(service.base_url), token=TOKEN, raise_on_unexpected_status=True
    )
    return client.set_httpx_client(wiped(service))


def test_an_extractor_session_parses_into_the_promised_models(api: Any) -> None:
    models = _module("models")
    drawers = _operations("drawers", "write_drawer")
    entities = _operations(
        "entities",
        "post_mentions",
        "post_drawer_mention",
        "get_entity",
        "list_entities",
        "entity_mentions",
        "list_review_links",
        "settle_candidate",
    )
    health = _module("api.health.health")

    up = health.sync_detailed(client=api)
    assert up.status_code == 200
    assert isinstance(up.parsed, models.HealthOut)

    content = f"Maria met Mario about the migration {uuid.uuid4()}"
    body = models.DrawerCreate(content=content, name="standup")
    written = drawers.write_drawer.sync_detailed("work", "notes", client=api, body=body)
    assert written.status_code == 201
    assert isinstance(written.parsed, models.DrawerWriteOut)
    assert written.parsed.created is True
    drawer = written.parsed.drawer
    assert isinstance(drawer, models.DrawerOut)
    assert (drawer.wing, drawer.room, drawer.name, drawer.content) == (
        "work",
        "notes",
        "standup",
        content,
    )
    replay = drawers.write_drawer.sync_detailed("work", "notes", client=api, body=body)
    assert replay.status_code == 200
    assert isinstance(replay.parsed, models.DrawerWriteOut)
    assert (replay.parsed.created, replay.parsed.drawer.id) == (False, drawer.id)

    origin = models.MentionInOrigin.from_dict({"document": "standup.md", "line": 3})
    batch = models.MentionBatchCreate(
        mentions=[
            models.MentionIn(drawer=drawer.id, name="Maria", kind="person", origin=origin),
            models.MentionIn(drawer=drawer.id, name="Mario", kind="person", extractor="ner"),
        ]
    )
    posted = entities.post_mentions.sync_detailed(client=api, body=batch)
    assert posted.status_code == 200
    assert isinstance(posted.parsed, models.MentionBatchOut)
    maria, mario = posted.parsed.results
    assert isinstance(maria, models.MentionOut)
    assert isinstance(maria.entity, models.EntitySummaryOut)
    assert (maria.entity.name, maria.created, maria.linked) == ("Maria", True, True)
    assert isinstance(maria.observation, models.ObservationOut)
    assert (maria.observation.rule, maria.observation.confidence) == ("new", 1.0)
    assert mario.possibly_same_as == [maria.entity.id]

    single = entities.post_drawer_mention.sync_detailed(
        drawer.id, client=api, body=models.MentionCreate(name="Maria", kind="person")
    )
    assert single.status_code == 200  # the drawer already mentions her
    assert isinstance(single.parsed, models.MentionOut)
    assert (single.parsed.entity.id, single.parsed.linked) == (maria.entity.id, False)

    got = entities.get_entity.sync_detailed(maria.entity.id, client=api)
    assert got.status_code == 200
    assert isinstance(got.parsed, models.EntityOut)
    assert (got.parsed.name, got.parsed.kind, got.parsed.key) == ("Maria", "person", "maria")

    listed = entities.list_entities.sync_detailed(client=api, kind="person", limit=1)
    assert listed.status_code == 200
    assert isinstance(listed.parsed, models.EntityPage)
    [first] = listed.parsed.entities
    assert isinstance(first, models.EntityOut)
    assert isinstance(listed.parsed.next_cursor, str)
    rest = entities.list_entities.sync_detailed(
        client=api, kind="person", cursor=listed.parsed.next_cursor
    )
    assert isinstance(rest.parsed, models.EntityPage)
    assert rest.parsed.next_cursor is None
    browsed = {first.id, *(e.id for e in rest.parsed.entities)}
    assert browsed == {maria.entity.id, mario.entity.id}
    named = entities.list_entities.sync_detailed(client=api, name="MARIA")
    assert isinstance(named.parsed, models.EntityPage)
    assert [e.name for e in named.parsed.entities] == ["Maria"]
    assert named.parsed.next_cursor is None

    found = entities.entity_mentions.sync_detailed(maria.entity.id, client=api)
    assert found.status_code == 200
    [mention] = found.parsed
    assert isinstance(mention, models.EntityMentionOut)
    assert mention.drawer == drawer.id
    assert mention.spellings == ["Maria"]
    assert isinstance(mention.provenance, models.ProvenanceOut)
    assert mention.provenance.origin.to_dict() == {"document": "standup.md", "line": 3}

    links = entities.list_review_links.sync_detailed(client=api)
    assert links.status_code == 200
    assert isinstance(links.parsed, models.ReviewLinkPage)
    [link] = links.parsed.links
    assert isinstance(link, models.ReviewLinkListed)
    assert (link.a.id, link.b.id, link.status) == (maria.entity.id, mario.entity.id, "pending")

    verdict = models.ReviewVerdictCreate(verdict=models.ReviewVerdictCreateVerdict.SAME)
    settled = entities.settle_candidate.sync_detailed(
        mario.entity.id, maria.entity.id, client=api, body=verdict
    )
    assert settled.status_code == 200
    assert isinstance(settled.parsed, models.SettledOut)
    assert settled.parsed.aliases == ["Mario"]


def test_an_error_parses_into_the_envelope(api: Any) -> None:
    models = _module("models")
    entities = _operations("entities", "get_entity", "add_alias")
    missing = entities.get_entity.sync_detailed("no-such-entity", client=api)
    assert missing.status_code == 404
    assert isinstance(missing.parsed, models.ErrorEnvelope)
    assert isinstance(missing.parsed.error, models.ErrorBody)
    assert missing.parsed.error.code == models.ErrorCode.GRAPHENTITY_NOT_FOUND
    assert "no-such-entity" in missing.parsed.error.message

    blank = models.AliasCreate(alias="  ")
    refused = entities.add_alias.sync_detailed("no-such-entity", client=api, body=blank)
    assert refused.status_code == 404  # the entity is checked first
    assert isinstance(refused.parsed, models.ErrorEnvelope)
