"""`bench review-page`: the review page's first screen with many pending review links (its
budget: under 300 ms with 100 k).
"""

import random
import statistics
import string
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx

from bench.report import print_table
from bench.service import Backend, running_service
from castlegraph.api.http.review_page import ASSETS, ASSETS_PATH, PAGE_PATH

BATCH = 1000
NAME_LETTERS = 10
QUEUE_PAGE = 50  # what the page asks for (`PAGE_SIZE` in links.js)
MENTIONS_ASKED = 101  # `MENTIONS_COUNTED` + 1 in links.js
DRAWERS_SHOWN = 3  # `MENTIONS_SHOWN` in links.js
TIMEOUT_SECONDS = 600.0


def name_pairs(count: int, seed: int) -> Iterator[tuple[str, str]]:
    """`count` pairs of distinct made-up names, each pair two substitutions apart (key
    similarity 0.8: a review link, never a typo). Random letters over ten places: the chance
    that two pairs come within two edits of each other is negligible."""
    rng = random.Random(seed)
    seen: set[str] = set()
    while len(seen) < 2 * count:
        letters = rng.choices(string.ascii_lowercase, k=NAME_LETTERS)
        older = "".join(letters).capitalize()
        first, second = rng.sample(range(1, NAME_LETTERS), 2)
        for place in (first, second):
            letters[place] = rng.choice([c for c in string.ascii_lowercase if c != letters[place]])
        newer = "".join(letters).capitalize()
        if older in seen or newer in seen:
            continue
        seen.update((older, newer))
        yield older, newer


def seed_links(client: httpx.Client, count: int, seed: int) -> float:
    """Post the pairs' mentions; the seconds it took.

    The links are made the way extractors make them: pairs of made-up tool names two letters apart
    (each pair one pending `two_edits` review link), posted through `POST /api/mentions` in batches,
    each batch in a drawer of its own.
    """
    started = time.perf_counter()
    names = [name for pair in name_pairs(count, seed) for name in pair]
    for batch_number, start in enumerate(range(0, len(names), BATCH)):
        batch = names[start : start + BATCH]
        content = f"Tools reviewed in batch {batch_number}: " + ", ".join(batch)
        drawer = client.post("/api/wings/bench/rooms/review/drawers", json={"content": content})
        drawer.raise_for_status()
        drawer_id = drawer.json()["drawer"]["id"]
        mentions = [{"drawer": drawer_id, "name": name, "kind": "tool"} for name in batch]
        client.post("/api/mentions", json={"mentions": mentions}).raise_for_status()
        if batch_number % 20 == 0:
            print(f"  {start + len(batch):,} / {len(names):,} names", file=sys.stderr)
    return time.perf_counter() - started


def _timed(client: httpx.Client, path: str, calls: dict[str, list[float]], name: str) -> Any:
    started = time.perf_counter()
    response = client.get(path)
    calls.setdefault(name, []).append((time.perf_counter() - started) * 1000)
    response.raise_for_status()
    return response.json() if "json" in response.headers["content-type"] else None


def first_screen(client: httpx.Client, calls: dict[str, list[float]]) -> float:
    """Every call of the page's first screen, in its order; the total in ms.

    As the page loads it: the page and its files, the first page of the queue (`GET
    /api/review-links`), and for the first link each side's mentions and up to three of the drawers
    that mention it. The calls run one after another (the browser runs the two sides at once), so
    the total is an upper bound.
    """
    started = time.perf_counter()
    _timed(client, PAGE_PATH, calls, "page")
    for asset in ASSETS:
        _timed(client, f"{ASSETS_PATH}/{asset}", calls, "assets")
    page = _timed(client, f"/api/review-links?status=pending&limit={QUEUE_PAGE}", calls, "queue")
    link = page["links"][0]
    for side in (link["a"], link["b"]):
        path = f"/api/entities/{side['id']}/mentions?limit={MENTIONS_ASKED}"
        mentions = _timed(client, path, calls, "mentions")
        for mention in mentions[:DRAWERS_SHOWN]:
            _timed(client, f"/api/drawers/{mention['drawer']}", calls, "drawers")
    return (time.perf_counter() - started) * 1000


def next_page(client: httpx.Client, calls: dict[str, list[float]]) -> None:
    """The queue's second page, which the page loads as the curator nears the first's end."""
    first = client.get(f"/api/review-links?status=pending&limit={QUEUE_PAGE}").json()
    cursor = first["next_cursor"]
    _timed(client, f"/api/review-links?limit={QUEUE_PAGE}&cursor={cursor}", calls, "next_page")


def _p(values: list[float], percentile: int) -> float:
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[percentile - 1]


def run(links: int, samples: int, seed: int, backend: Backend) -> dict[str, Any]:
    with (
        running_service(backend) as service,
        httpx.Client(base_url=service.base_url, timeout=TIMEOUT_SECONDS) as client,
    ):
        print(f"seeding {links:,} review links…", file=sys.stderr)
        seed_seconds = seed_links(client, links, seed)
        pending = client.get("/api/hygiene").json()["possibly_same_as_pending"]
        calls: dict[str, list[float]] = {}
        first_screen(client, {})  # warm: the first read of each path pays for loading
        totals = [first_screen(client, calls) for _ in range(samples)]
        for _ in range(samples):
            next_page(client, calls)
    entry = {
        "size": links,
        "pending_links": pending,
        "seed_seconds": round(seed_seconds, 1),
        "first_screen_p50_ms": round(statistics.median(totals), 2),
        "first_screen_p95_ms": round(_p(totals, 95), 2),
        "calls_p50_ms": {name: round(statistics.median(v), 2) for name, v in calls.items()},
    }
    print_table(
        f"review page, {pending:,} pending links ({samples} samples)",
        ["call", "p50 ms", "p95 ms", "calls per screen"],
        [
            ["first screen", entry["first_screen_p50_ms"], entry["first_screen_p95_ms"], None],
            *(
                [name, statistics.median(v), _p(v, 95), len(v) // samples]
                for name, v in calls.items()
            ),
        ],
    )
    return {"sizes": [entry]}
