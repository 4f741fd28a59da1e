"""What the text tools say: duplicate clusters and the review queue, written for a model to read.

Both render the JSON the HTTP API returns (`GET /api/duplicates`, `GET /api/hygiene`), so the
text cannot drift from the machine-readable answer. A pair line names both drawers by a short
excerpt and by id, so the model can quote the text and still pass the ids to the next tool.
"""

import json
from collections.abc import Mapping

from castlegraph.api.client.protocol import Json
from castlegraph.api.mcp.guide import GUIDE_URI
from castlegraph.api.models.duplicates import DEFAULT_THRESHOLD

EXCERPT_CHARS = 80
"""Long enough to recognise a memory, short enough to keep a cluster of ten on one screen."""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _number(value: float) -> str:
    """A threshold as given (0.85, 0.9, 1), without float noise."""
    return f"{value:.6f}".rstrip("0").rstrip(".")


def excerpt(content: str) -> str:
    """The start of a text on one line, cut at a word boundary when it is long."""
    text = " ".join(content.split())
    if len(text) <= EXCERPT_CHARS:
        return text
    cut = text[:EXCERPT_CHARS].rsplit(" ", 1)[0] or text[:EXCERPT_CHARS]
    return cut.rstrip(" ,;:.") + "…"


def _drawer(drawer_id: str, contents: Mapping[str, str | None]) -> str:
    content = contents.get(drawer_id)
    shown = json.dumps(excerpt(content), ensure_ascii=False) if content is not None else "(gone)"
    return f"{shown} ({drawer_id})"


def scope_words(wing: str | None, room: str | None) -> str:
    parts = [f"{label} {value!r}" for label, value in (("wing", wing), ("room", room)) if value]
    return " in " + ", ".join(parts) if parts else ""


def duplicates_text(
    answer: Json, contents: Mapping[str, str | None], scope: str, max_clusters: int
) -> str:
    """`Cluster of N:` then one `[score:S] "a" (id) <-> "b" (id)` line per pair, best first."""
    threshold = _number(answer["threshold"])
    clusters = answer["clusters"]
    if not clusters:
        return f"No duplicate candidates at threshold {threshold}{scope}."
    pairs = sum(int(cluster.get("pairs_total", len(cluster["pairs"]))) for cluster in clusters)
    lines = [
        f"{_count(len(clusters), 'cluster')} of duplicate candidates "
        f"({_count(pairs, 'pair')}) at threshold {threshold}{scope}, best first."
    ]
    for cluster in clusters[:max_clusters]:
        lines += ["", f"Cluster of {cluster['size']}:"]
        lines += [
            f"  [score:{pair['score']:.2f}] {_drawer(pair['a'], contents)}"
            f" <-> {_drawer(pair['b'], contents)}"
            for pair in cluster["pairs"]
        ]
        unlisted = int(cluster.get("pairs_total", len(cluster["pairs"]))) - len(cluster["pairs"])
        if unlisted > 0:
            lines.append(f"  ... {_count(unlisted, 'more pair')} not listed (the best are).")
    hidden = len(clusters) - max_clusters
    if hidden > 0:
        lines += ["", f"{_count(hidden, 'more cluster')} not shown: narrow by wing/room."]
    lines += [
        "",
        f"Judge each pair as {GUIDE_URI} says, then record it with dedup_mark_checked.",
    ]
    return "\n".join(lines)


def shown_drawers(answer: Json, max_clusters: int) -> list[str]:
    """The drawer ids whose excerpts `duplicates_text` prints, in a stable order."""
    ids = {
        pair[side]
        for cluster in answer["clusters"][:max_clusters]
        for pair in cluster["pairs"]
        for side in ("a", "b")
    }
    return sorted(ids)


def hygiene_text(report: Json) -> str:
    pairs = int(report["duplicate_pairs_pending"])
    links = int(report["possibly_same_as_pending"])
    missing = int(report["drawers_without_embedding"])
    threshold = _number(DEFAULT_THRESHOLD)
    if not (pairs or links or missing):
        return (
            f"Nothing waits for review: no duplicate pairs at threshold {threshold}, "
            "no pending possibly_same_as links, and every drawer has an embedding."
        )
    return "\n".join(
        [
            "Waiting for review:",
            f"- {_count(pairs, 'duplicate pair')} at threshold {threshold}: "
            "list them with find_duplicates.",
            f"- {_count(links, 'pending possibly_same_as link')} between entities: "
            "list them with review_links.",
            f"- {_count(missing, 'drawer')} without an embedding: out of find_duplicates' "
            "reach until a vector is stored.",
        ]
    )
