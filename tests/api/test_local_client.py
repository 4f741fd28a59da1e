"""The in-process client answers as HTTP does: every method of `Client`, called on the app's own
use cases (`LocalClient`) and over HTTP (`HttpClient` sent through the same app), gives the same
JSON, and the same status, code and message for an error.

One story calls every method; it runs once through each client, each time on an empty graph, and
the two records must be equal once ids and times (new ones each run) are replaced by
placeholders. The story's other steps (mentions, waiting for a job) go through HTTP both times.
The app has no tokens, so HTTP knows no caller: every call here passes `caller=None` (what an
agent's token changes is tested through HTTP, e.g. `test_agent_tokens.py`).
"""

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from castlegraph.api.client.http import HttpClient, RemoteError
from castlegraph.api.client.local import LocalClient
from castlegraph.api.client.protocol import Client
from castlegraph.api.http.statuses import http_status
from castlegraph.resolver.errors import CastlegraphError
from tests.support.app import wiped
from tests.support.polling import eventually

UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
TIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}")
FINISHED = ("succeeded", "failed", "cancelled")
CLIENT_METHODS = {
    name for name, value in vars(Client).items() if callable(value) and not name.startswith("_")
}


def placeheld(value: Any) -> Any:
    """The answer with each id as `<id>`, each time as `<time>` and each page cursor (which
    holds a time and an id) as `<cursor>`."""
    if isinstance(value, dict):
        return {
            key: "<cursor>" if key == "next_cursor" and item else placeheld(item)
            for key, item in value.items()
        }
    if isinstance(value, list | tuple):
        return [placeheld(item) for item in value]
    if isinstance(value, str):
        return "<time>" if TIME.match(value) else UUID.sub("<id>", value)
    return value


class Recorder:
    """Each call's answer, or its error as (status, code, message), by the method's name."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.answers: list[tuple[str, Any]] = []

    def __call__(self, method: str, *args: Any, **kwargs: Any) -> Any:
        call: Callable[..., Any] = getattr(self.client, method)
        try:
            answer = call(*args, **kwargs)
        except CastlegraphError as error:
            status = error.status if isinstance(error, RemoteError) else http_status(type(error))
            self.answers.append((method, (status, str(error.code), error.message)))
            return None
        self.answers.append((method, answer))
        return answer


def mention(client: TestClient, drawer: str, name: str) -> str:
    response = client.post(
        "/api/mentions", json={"mentions": [{"drawer": drawer, "name": name, "kind": "person"}]}
    )
    assert response.status_code == 200, response.text
    entity_id: str = response.json()["results"][0]["entity"]["id"]
    return entity_id


def finished(client: TestClient, job: dict[str, Any]) -> None:
    def done() -> bool:
        return client.get(f"/api/jobs/{job['id']}").json()["job"]["status"] in FINISHED

    eventually(done, f"job {job['id']} finished")


def story(call: Recorder, client: TestClient, mine_dir: Path) -> list[tuple[str, Any]]:
    """Every `Client` method at least once, on an empty graph; an error or two among them."""
    first = call(
        "write_drawer", "work", "notes", {"content": "The deploy runs at nine."}, caller=None
    )
    call("write_drawer", "work", "notes", {"content": "The deploy runs at nine."}, caller=None)
    near = {"content": "The deploy runs at nine, daily.", "name": "deploy"}
    second = call("write_drawer", "work", "notes", near, caller=None)
    call("write_drawer", "work", "tab\tbed", {"content": "x"}, caller=None)
    call("write_diary", {"agent": "scribe", "content": "Reviewed the deploy."}, caller=None)
    call("write_diary", {"agent": "scribe", "content": "Reviewed the deploy."}, caller=None)
    drawer_id, other_id = first["drawer"]["id"], second["drawer"]["id"]
    call("drawer", drawer_id, caller=None)
    call("drawer", "no-such-drawer", caller=None)
    call("drawer_duplicates", drawer_id, caller=None)
    call("find_duplicates", None, None, 0.5, caller=None)
    call("find_duplicates", "work", "notes", 0.9, caller=None)
    call("find_duplicates", "work", "tab\tbed", 0.9, caller=None)
    call("mark_checked", {"a": drawer_id, "b": other_id, "status": "supplement"}, caller=None)
    call("mark_checked", {"a": drawer_id, "b": drawer_id, "status": "duplicate"}, caller=None)
    call("hygiene", caller=None)
    call("room_drawers", "work", "notes", 1, None, caller=None)
    page = call("room_drawers", "work", "notes", 100, None, caller=None)
    call("room_drawers", "work", "notes", 0, None, caller=None)
    call("search_drawers", "work", "notes", "DEPLOY nine", 10, caller=None)
    call("search_drawers", "work", "notes", "   ", 10, caller=None)
    assert page is not None and len(page["drawers"]) == 2
    rewritten = call(
        "supersede_drawer", other_id, {"content": "The deploy runs at ten."}, caller=None
    )
    call("supersede_drawer", other_id, {"content": "Superseded twice."}, caller=None)
    other_id = rewritten["drawer"]["id"]
    scratch = call("write_drawer", "work", "scratch", {"content": "Delete me."}, caller=None)
    call("delete_drawer", scratch["drawer"]["id"], caller=None)
    call("delete_drawer", scratch["drawer"]["id"], caller=None)
    batch = {"mentions": [{"drawer": drawer_id, "name": "Arya Stark", "kind": "person"}]}
    call("post_mentions", batch, caller=None)
    call(
        "post_mentions",
        {"mentions": [{"drawer": drawer_id, "name": " ", "kind": "x"}]},
        caller=None,
    )

    older = mention(client, drawer_id, "Jon Snow")
    newer = mention(client, other_id, "John Snow")
    call("resolve", "Jon Snow", "person")
    call("resolve", " ", "person")
    call("find_entities", "jon snow", None, None)
    call("find_entities", "Jon Snow", "person", None)
    call("entity_mentions", older, caller=None)
    call("entity_candidates", newer)
    call("entity_candidates", newer, "all")
    call("review_links", "pending", None, None, None)
    call("review_links", "pending", "person", "known_words", None)
    call("settle_review_link", older, newer, {"verdict": "same"})
    call("entity_candidates", newer, "settled")
    call("review_links", "same", None, None, None)
    call("add_alias", older, {"alias": "Lord Snow"})
    call("add_alias", "no-such-entity", {"alias": "Ghost"})

    items = [{"content": "Standup moved to ten."}, {"content": "The deploy runs at nine."}]
    job = call("checkpoint", {"wing": "work", "room": "notes", "items": items})["job"]
    finished(client, job)
    call("job", job["id"])
    (mine_dir / "notes.md").write_text("Mined from a file.", encoding="utf-8")
    mined = call("mine", {"path": str(mine_dir), "wing": "docs", "room": "mined"})["job"]
    finished(client, mined)
    call("cancel_job", mined["id"])
    call("cancel_job", "no-such-job")
    call("jobs", 10)
    return call.answers


def test_the_in_process_client_answers_every_call_as_http_does(
    client: TestClient, mine_dir: Path
) -> None:
    usecases = client.app.state.usecases  # type: ignore[attr-defined]
    local = story(Recorder(LocalClient(usecases)), client, mine_dir)
    wiped(client)
    over_http = HttpClient(str(client.base_url), usecases.settings)
    over_http._http.close()
    over_http._http = client  # type: ignore[assignment]  # the same app, through its routes
    remote = story(Recorder(over_http), client, mine_dir)
    assert {method for method, _ in local} == CLIENT_METHODS
    for (method, mine), (_, theirs) in zip(local, remote, strict=True):
        assert (method, placeheld(mine)) == (method, placeheld(theirs))
