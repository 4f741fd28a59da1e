"""Drawer-write benchmark (design §10): latency of one write as the room grows.

For each size N a fresh service fills a room with N drawers, then single writes are timed one
at a time, as an agent makes them, with near and exact copies in the mix so the dedup path runs
(the outcome counts per kind show it did). A write in a room of 100 k may cost little more than
one in a room of 1 k: candidates come from indexes, never a scan of the room (design §4.5).
"""

import http.client
import json
import random
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any
from urllib.parse import urlsplit

import httpx

from bench.corpus import Corpus, Kind, Text
from bench.planted import planted
from bench.report import Cell, print_table
from bench.service import Backend, Service, memory_facts, running_service, statement_counts
from bench.targets import bound

WING = "bench"
FILL_CLIENTS = 4
FILL_NEAR, FILL_EXACT = 0.05, 0.02
SAMPLE_NEAR, SAMPLE_EXACT = 0.10, 0.05
"""More copies among the timed writes than in the fill, so each kind gets enough samples."""
WARMUP_WRITES = 5
"""Untimed writes on the timing client first: the first request pays for the TCP connect."""
PROGRESS_SECONDS = 5.0
TARGET_P50_MS, TARGET_P99_MS = bound("drawers", "p50_ms"), bound("drawers", "p99_ms")
TARGET_RATIO = bound("drawers", "cost_ratio")
"""design §10, at 100 k drawers; the ratio compares the largest room with the smallest."""
REQUEST_TIMEOUT_SECONDS = 60.0
PLANTED_PER_KIND = 40
"""Near copies planted per kind (design §4.5): originals written into the full room, then the
copies; recall is the share of copies linked to their original."""


@dataclass
class SizeResult:
    size: int
    fill_seconds: float
    fill_statuses: Counter[int]
    latencies_ms: list[float] = field(default_factory=list)
    """The timed writes of the bare client (the budget's)."""
    httpx_latencies_ms: list[float] = field(default_factory=list)
    """The same run's other half of the timed writes, through httpx."""
    outcomes: dict[str, Counter[str]] = field(default_factory=dict)
    recall: dict[str, Counter[str]] = field(default_factory=dict)
    memory: dict[str, float | None] = field(default_factory=dict)
    database_start_seconds: float | None = None
    """The Neo4j server's start (the embedded database starts within the service's start)."""
    round_trips: Counter[str] = field(default_factory=Counter)
    """The database statements the timed writes made, by name (the service's `/metrics`): a
    write whose candidates the service knows is one, `create_drawer_unless_moved`."""

    @property
    def timed_writes(self) -> int:
        return len(self.latencies_ms) + len(self.httpx_latencies_ms)

    @property
    def fill_rate(self) -> float:
        return self.size / self.fill_seconds

    def stat(self, name: str) -> float:
        """`mean` or a percentile (`p50`, `p99`) of the bare client's timed writes, in ms."""
        return _stat(self.latencies_ms, name)

    def httpx_stat(self, name: str) -> float:
        return _stat(self.httpx_latencies_ms, name)

    def summary(self) -> dict[str, Any]:
        return {
            "size": self.size,
            "fill_seconds": round(self.fill_seconds, 3),
            "fill_rate_per_s": round(self.fill_rate, 1),
            "fill_statuses": {str(k): v for k, v in sorted(self.fill_statuses.items())},
            "samples": len(self.latencies_ms),
            **{f"{name}_ms": self.stat(name) for name in ("p50", "p90", "p99", "mean")},
            **{f"httpx_{name}_ms": self.httpx_stat(name) for name in ("p50", "p99", "mean")},
            "max_ms": max(self.latencies_ms),
            "outcomes": {kind: dict(counts) for kind, counts in self.outcomes.items()},
            "planted_recall": {kind: dict(counts) for kind, counts in self.recall.items()},
            "latencies_ms": [round(x, 3) for x in self.latencies_ms],
            "httpx_latencies_ms": [round(x, 3) for x in self.httpx_latencies_ms],
            "round_trips": dict(sorted(self.round_trips.items())),
            "database_start_seconds": (
                None
                if self.database_start_seconds is None
                else round(self.database_start_seconds, 2)
            ),
            **self.memory,
        }


def _stat(latencies_ms: Sequence[float], name: str) -> float:
    """`mean` or a percentile (`p50`, `p99`), in ms. Percentiles are inclusive quantiles: p99 of
    200 samples interpolates between the two largest rather than reporting the single worst."""
    if name == "mean":
        return statistics.fmean(latencies_ms)
    percentile = int(name.removeprefix("p"))
    return statistics.quantiles(latencies_ms, n=100, method="inclusive")[percentile - 1]


Post = Callable[[str, bytes], tuple[int, bytes]]
"""Send a JSON body to a URL; the reply's status and body, unparsed."""


class BareClient:
    """One keep-alive HTTP/1.1 connection through the standard library, for timed writes."""

    def __init__(self, base_url: str) -> None:
        address = urlsplit(base_url)  # bench.service's http://127.0.0.1:port
        self._connection = http.client.HTTPConnection(
            address.hostname or "", address.port, timeout=REQUEST_TIMEOUT_SECONDS
        )

    def post(self, url: str, body: bytes) -> tuple[int, bytes]:
        """The reply's status and body, read whole and left unparsed."""
        self._connection.request("POST", url, body, {"content-type": "application/json"})
        response = self._connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self._connection.close()


def _url(size: int) -> str:
    return f"/api/wings/{WING}/rooms/room-{size}/drawers"


def _post(client: httpx.Client, url: str, content: str) -> httpx.Response:
    response = client.post(url, json={"content": content})
    if response.status_code not in (200, 201):
        raise RuntimeError(f"POST {url} → {response.status_code}: {response.text[:500]}")
    return response


def fill(service: Service, size: int, texts: Sequence[Text]) -> tuple[float, Counter[int]]:
    """Write `texts` with 4 clients, each its own keep-alive connection; progress on stderr.

    The first failure stops the other clients too (`done`), and the pool re-raises it here.
    """
    statuses: Counter[int] = Counter()
    lock = threading.Lock()
    done = threading.Event()
    url = _url(size)

    def client_writes(share: Sequence[Text]) -> None:
        try:
            with httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS) as client:
                for text in share:
                    if done.is_set():
                        return
                    status = _post(client, url, text.content).status_code
                    with lock:
                        statuses[status] += 1
        except BaseException:
            done.set()
            raise

    started = time.perf_counter()
    with ThreadPoolExecutor(FILL_CLIENTS + 1) as pool:
        pool.submit(_progress, size, statuses, started, done)
        clients = [pool.submit(client_writes, texts[i::FILL_CLIENTS]) for i in range(FILL_CLIENTS)]
        try:
            for future in clients:
                future.result()
        finally:
            done.set()
    return time.perf_counter() - started, statuses


def _progress(size: int, statuses: Counter[int], started: float, done: threading.Event) -> None:
    while not done.wait(PROGRESS_SECONDS):
        count = statuses.total()
        rate = count / (time.perf_counter() - started)
        print(f"  room-{size}: {count:,}/{size:,} written ({rate:,.0f}/s)", file=sys.stderr)


def measure(service: Service, size: int, texts: Sequence[Text], result: SizeResult) -> None:
    """Time each write alone, alternately on the bare client and on httpx (each its own
    keep-alive connection, warmed first); tally status and links per kind.

    The target is judged on the bare client, which measures the service rather than the
    harness: httpx spends a noticeable share of a write building and parsing a request. Both are
    reported, from the same run and the same room."""
    url = _url(size)
    bare = BareClient(service.base_url)
    with httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS) as client:
        clients: tuple[tuple[Post, list[float]], ...] = (
            (bare.post, result.latencies_ms),
            (partial(_httpx_post, client), result.httpx_latencies_ms),
        )
        for n, text in enumerate(texts[:WARMUP_WRITES]):
            _timed(clients[n % 2][0], [], url, text.content)
        before = statement_counts(client)
        for n, text in enumerate(texts[WARMUP_WRITES:]):
            status, reply = _timed(*clients[n % 2], url, text.content)
            tally = result.outcomes.setdefault(text.kind.value, Counter())
            tally["writes"] += 1
            tally[str(status)] += 1
            tally["with_similar"] += bool(reply.get("similar"))
        result.round_trips = statement_counts(client) - before
    bare.close()


def _httpx_post(client: httpx.Client, url: str, body: bytes) -> tuple[int, bytes]:
    response = client.post(url, content=body, headers={"content-type": "application/json"})
    return response.status_code, response.content


def _timed(
    post: Post, latencies_ms: list[float], url: str, content: str
) -> tuple[int, dict[str, Any]]:
    """One write through `post`, its time (body encoded before, reply parsed after) added to
    `latencies_ms`; the status and the parsed reply."""
    body = json.dumps({"content": content}).encode()
    started = time.perf_counter()
    status, reply = post(url, body)
    latencies_ms.append((time.perf_counter() - started) * 1000)
    if status not in (200, 201):
        raise RuntimeError(f"POST {url} → {status}: {reply[:500]!r}")
    parsed: dict[str, Any] = json.loads(reply)
    return status, parsed


def measure_recall(
    service: Service, size: int, triples: Sequence[tuple[str, str, str]], result: SizeResult
) -> None:
    """Write each planted original, then (after all originals) its copy; count the links."""
    url = _url(size)
    with httpx.Client(base_url=service.base_url, timeout=REQUEST_TIMEOUT_SECONDS) as client:
        originals = [
            _post(client, url, original).json()["drawer"]["id"] for _, original, _ in triples
        ]
        for (kind, _, copy), original_id in zip(triples, originals, strict=True):
            similar = {
                entry["drawer"] for entry in _post(client, url, copy).json().get("similar", [])
            }
            tally = result.recall.setdefault(kind, Counter())
            tally["planted"] += 1
            tally["linked"] += original_id in similar


def run_size(service: Service, corpus: Corpus, size: int, samples: int, seed: int) -> SizeResult:
    """Fill a fresh room of `size` drawers, then time `samples` writes into it."""
    rng = random.Random(f"{seed}:{size}")  # each size its own stream, independent of the others
    room = corpus.room(size, rng, FILL_NEAR, FILL_EXACT)
    print(f"filling room-{size} with {size:,} drawers…", file=sys.stderr)
    seconds, statuses = fill(service, size, room)
    result = SizeResult(size=size, fill_seconds=seconds, fill_statuses=statuses)
    result.database_start_seconds = service.neo4j.start_seconds if service.neo4j else None
    written: list[Text] = list(room)
    timed: list[Text] = [Text(Kind.NEW, corpus.text(rng)) for _ in range(WARMUP_WRITES)]
    while len(timed) < WARMUP_WRITES + samples:
        text = corpus.follow(written, rng, SAMPLE_NEAR, SAMPLE_EXACT)
        timed.append(text)
        written.append(text)
    print(f"timing {samples} single writes in room-{size}…", file=sys.stderr)
    measure(service, size, timed, result)
    print(f"planting near copies in room-{size}…", file=sys.stderr)
    measure_recall(service, size, planted(corpus, rng, PLANTED_PER_KIND), result)
    result.memory = memory_facts(service)
    return result


def run(sizes: Sequence[int], samples: int, seed: int, backend: Backend) -> dict[str, Any]:
    """Each size on a fresh service (and graph), smallest room first; returns the JSON results."""
    corpus = Corpus(seed)
    results: list[SizeResult] = []
    for size in sorted(sizes):
        with running_service(backend) as service:
            results.append(run_size(service, corpus, size, samples, seed))
    _print(results, backend)
    small, large = results[0], results[-1]
    return {
        "backend": str(backend),
        "sizes": [r.summary() for r in results],
        "ratio": {
            "from": small.size,
            "to": large.size,
            **{name: large.stat(name) / small.stat(name) for name in ("p50", "p99", "mean")},
        },
        "targets": {"p50_ms": TARGET_P50_MS, "p99_ms": TARGET_P99_MS, "ratio": TARGET_RATIO},
    }


def _print(results: Sequence[SizeResult], backend: Backend) -> None:
    rows = [
        [r.size, len(r.latencies_ms), *(r.stat(name) for name in ("p50", "p90", "p99", "mean")),
         max(r.latencies_ms), r.fill_rate, r.memory.get("service_rss_mb"),
         r.memory.get("database_rss_mb")]
        for r in results
    ]  # fmt: skip
    targets = f"target p50 ≤ {TARGET_P50_MS:g} ms, p99 ≤ {TARGET_P99_MS:g} ms"
    columns = "room size|writes|p50 ms|p90 ms|p99 ms|mean ms|max ms|fill /s|service MB|database MB"
    title = f"Single drawer writes over HTTP, bare client, on {backend} ({targets})"
    print_table(title, columns.split("|"), rows)
    client_rows: list[list[Cell]] = [
        [r.size, *(stat(name) for stat in (r.stat, r.httpx_stat) for name in ("p50", "p99"))]
        for r in results
    ]
    print_table(
        f"The same run's writes by client on {backend} (alternating, one connection each)",
        ["room size", "bare p50 ms", "bare p99 ms", "httpx p50 ms", "httpx p99 ms"],
        client_rows,
    )
    small, large = results[0], results[-1]
    ratios: list[list[Cell]] = [
        [name, small.stat(name), large.stat(name), large.stat(name) / small.stat(name)]
        for name in ("p50", "p99", "mean")
    ]
    print_table(
        f"Cost growth room-{large.size} / room-{small.size} on {backend} "
        f"(target ≤ {TARGET_RATIO:g} times from 1 k to 100 k)",
        ["statistic", f"{small.size:,} ms", f"{large.size:,} ms", "ratio"],
        ratios,
    )
    outcome_rows: list[list[Cell]] = [
        [r.size, kind, c["writes"], c["201"], c["200"], c["with_similar"]]
        for r in results
        for kind, c in sorted(r.outcomes.items())
    ]
    print_table(
        f"Dedup sanity check of the timed writes on {backend} "
        "(exact → 200; near → 201 with similar)",
        ["room size", "kind", "writes", "201 created", "200 existing", "with similar"],
        outcome_rows,
    )
    trip_rows: list[list[Cell]] = [
        [r.size, name, count, count / r.timed_writes]
        for r in results
        for name, count in sorted(r.round_trips.items())
    ]
    print_table(
        f"Database round trips of the timed writes on {backend}, by statement",
        ["room size", "statement", "count", "per write"],
        trip_rows,
    )
    recall_rows: list[list[Cell]] = [
        [r.size, kind, c["planted"], c["linked"], c["linked"] / c["planted"]]
        for r in results
        for kind, c in sorted(r.recall.items())
    ]
    print_table(
        f"Recall of planted near copies on {backend} (design §4.5: 100 % at every size)",
        ["room size", "kind", "planted", "linked", "recall"],
        recall_rows,
    )
    fill_rows = [
        [r.size, r.fill_seconds, r.fill_rate, r.fill_statuses[201], r.fill_statuses[200]]
        for r in results
    ]
    print_table(
        f"Fill on {backend} ({FILL_CLIENTS} clients; {FILL_NEAR:.0%} near and "
        f"{FILL_EXACT:.0%} exact copies)",
        ["room size", "seconds", "drawers /s", "201 created", "200 existing"],
        fill_rows,
    )
