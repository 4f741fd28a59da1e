"""`/review` over HTTP: the page's files answer without a token and with a Content-Security-
Policy, its data calls need the token, and the Host check applies."""

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from castlegraph.api.http.review_page import CONTENT_SECURITY_POLICY
from tests.support.app import app_settings, assert_envelope, running_app
from tests.support.review_page import parse_page

TOKEN = {"Authorization": "Bearer curator-secret"}
FILES = {
    "/review": "text/html; charset=utf-8",
    "/review/assets/review.js": "text/javascript; charset=utf-8",
    "/review/assets/common.js": "text/javascript; charset=utf-8",
    "/review/assets/links.js": "text/javascript; charset=utf-8",
    "/review/assets/duplicates.js": "text/javascript; charset=utf-8",
    "/review/assets/review.css": "text/css; charset=utf-8",
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    settings = app_settings(tmp_path_factory.mktemp("review"), api={"tokens": ["curator-secret"]})
    with running_app(settings) as client:
        yield client


@pytest.mark.parametrize(("path", "media_type"), FILES.items())
def test_the_pages_files_answer_without_a_token_with_their_headers(
    client: TestClient, path: str, media_type: str
) -> None:
    response = client.get(path)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == media_type
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"


def test_the_policy_forbids_inline_scripts_and_other_sites() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CONTENT_SECURITY_POLICY.split(";"))
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["default-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"


def test_the_served_page_loads_only_the_served_files(client: TestClient) -> None:
    page = parse_page(client.get("/review").text)
    loaded = [s.attrs["src"] for s in page.all("script")] + [
        link.attrs["href"] for link in page.all("link") if link.attrs["rel"] == "stylesheet"
    ]
    assert sorted(loaded) == ["/review/assets/review.css", "/review/assets/review.js"]
    assert all(not script.text.strip() for script in page.all("script"))


@pytest.mark.parametrize(
    "path",
    [
        "/review/assets/index.html",
        "/review/assets/..%2Freview_page.py",
        "/review/assets/%2E%2E%2F..%2Fapp.py",
        "/review/assets/nothing.js",
    ],
)
def test_nothing_else_is_served_from_the_assets(client: TestClient, path: str) -> None:
    response = client.get(path, headers=TOKEN)
    assert response.status_code == 404
    assert_envelope(response.json(), "http::not_found")


def test_the_pages_data_calls_still_need_the_token(client: TestClient) -> None:
    response = client.get("/api/review-links")
    assert response.status_code == 401
    assert_envelope(response.json(), "auth::unauthorized")
    answered = client.get("/api/review-links", headers=TOKEN)
    assert answered.json() == {"links": [], "next_cursor": None}


def test_a_foreign_host_is_refused_the_page(client: TestClient) -> None:
    response = client.get("/review", headers={"Host": "evil.example"})
    assert response.status_code == 403
    assert_envelope(response.json(), "auth::forbidden")


def test_the_page_is_not_in_the_api_document(client: TestClient) -> None:
    paths = client.get("/openapi.json", headers=TOKEN).json()["paths"]
    assert not [path for path in paths if path.startswith("/review")]
