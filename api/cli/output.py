"""What commands print: the API's JSON with `--json`, else short lines and tables for people.

Every renderer takes the JSON the HTTP API returns (the same in-process and over HTTP), so the
human output cannot drift from the machine-readable one.
"""

import json
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import typer

from castlegraph.api.client.protocol import Json


def emit(data: Any, as_json: bool, render: Callable[[Any], str]) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False) if as_json else render(data))


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Left-aligned columns two spaces apart; the last column is never padded."""
    cells = [list(map(str, headers)), *([str(cell) for cell in row] for row in rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers) - 1)]
    return "\n".join(
        "  ".join([*(cell.ljust(width) for cell, width in zip(row, widths, strict=False)), row[-1]])
        for row in cells
    )


def _seconds(job: Json) -> str:
    if not job.get("started_at") or not job.get("finished_at"):
        return ""
    started = datetime.fromisoformat(job["started_at"])
    finished = datetime.fromisoformat(job["finished_at"])
    return f" in {(finished - started).total_seconds():.1f} s"


def _counts(result: Json | None) -> str:
    if not result:
        return ""
    return ", ".join(f"{k} {v}" for k, v in result.items() if isinstance(v, int | float | str))


def job_outcome(envelope: Json) -> str:
    """A finished job: `mine job <id> succeeded in 1.2 s` and the counts of its result."""
    job = envelope["job"]
    lines = [f"{job['kind']} job {job['id']} {job['status']}{_seconds(job)}"]
    params = job.get("params", {})
    if "wing" in params:
        lines.append(f"  into {params['wing']}/{params.get('room', '')}")
    if job.get("result"):
        lines.append(f"  {_counts(job['result'])}")
        lines.extend(
            f"  item {failed['index']} not stored: {failed['code']} {failed['message']}"
            for failed in job["result"].get("failed", [])
        )
    if job.get("error"):
        lines.append(f"  error: {job['error'].get('code')} {job['error'].get('message')}")
    return "\n".join(lines)


def job_detail(envelope: Json) -> str:
    job = envelope["job"]
    progress = job["progress"]
    total = progress["total"] if progress["total"] is not None else "?"
    rows = [
        ("id", job["id"]),
        ("kind", job["kind"]),
        ("status", job["status"]),
        ("progress", f"{progress['done']}/{total}"),
        *((f"param {k}", v) for k, v in job["params"].items()),
        ("result", _counts(job["result"]) or "-"),
        ("created", job["created_at"]),
        ("started", job["started_at"] or "-"),
        ("finished", job["finished_at"] or "-"),
    ]
    if job.get("error"):
        rows.append(("error", f"{job['error'].get('code')} {job['error'].get('message')}"))
    return table(("field", "value"), rows).split("\n", 1)[1]


def job_list(answer: Json) -> str:
    jobs = answer["jobs"]
    if not jobs:
        return "no jobs"
    rows = [
        (
            job["id"],
            job["kind"],
            job["status"],
            f"{job['progress']['done']}/{job['progress']['total'] or '?'}",
            job["created_at"],
            _counts(job["result"]),
        )
        for job in jobs
    ]
    return table(("ID", "KIND", "STATUS", "PROGRESS", "CREATED", "RESULT"), rows)


def _entity(entity: Json) -> str:
    return f"{entity['name']} ({entity['kind']}) {entity['id']}"


def resolution(answer: Json) -> str:
    """The dry run: the decision, the rule that fired, the review links it would make, and
    why (`explain`): which lists know each word, and each candidate's outcome."""
    rule = f"rule {answer['rule']}, confidence {answer['confidence']:.2f}"
    if answer["entity"] is None:
        lines = [f"new entity ({rule})"]
    else:
        lines = [f"same as {_entity(answer['entity'])} ({rule})"]
    lines.extend(
        f"  possibly same as {_entity(link['entity'])}: similarity {link['similarity']:.2f}, "
        f"{link['reason']}"
        for link in answer["possibly_same_as"]
    )
    explained = answer.get("explain")
    if explained is not None:
        lines.extend(_explanation(explained))
    lines.append("nothing was written (dry run)")
    return "\n".join(lines)


_OUTCOMES = {"converged": "converged", "review_link": "review link", "none": "no link"}


def _explanation(explained: Json) -> list[str]:
    """`explain` as lines: `jayden: common words: no, given names and surnames: yes`, then one
    line per candidate: its outcome and why."""
    people = "a kind that holds people" if explained["holds_people"] else "a kind without people"
    lines = [f"key {explained['mention_key']!r}, {people}"]
    if not explained["fuzzy"]:
        lines.append("fuzzy matching is off: only rules 1-3 apply, no list is asked")
    for word in explained["words"]:
        if word["lists"]:
            lines.append(f"  {word['word']}: " + ", ".join(map(_known, word["lists"])))
    for pair in explained["pairs"]:
        outcome = _OUTCOMES[pair["outcome"]]
        label = pair["rule"] or pair["reason"] if pair["outcome"] != "none" else None
        head = f"{outcome} ({label})" if label else outcome
        lines.append(f"  {pair['spelling']} [{_entity(pair['entity'])}]: {head}: {pair['why']}")
    return lines


def _known(listed: Json) -> str:
    answer = f"{listed['name']}: {'yes' if listed['knows'] else 'no'}"
    return answer if listed["consulted"] else f"{answer} (not asked for this kind)"


def entity_report(answer: Json) -> str:
    """Each entity: name, kind, key, aliases; its mentions; its pending review links and the
    settled ones with their verdicts."""
    return "\n\n".join(_one_entity(found) for found in answer["entities"])


def _one_entity(found: Json) -> str:
    entity, mentions, candidates = found["entity"], found["mentions"], found["candidates"]
    lines = [
        f"{entity['name']}  ({entity['kind']})",
        f"  id       {entity['id']}",
        f"  key      {entity['key']}",
        f"  aliases  {', '.join(entity['aliases']) or '-'}",
        f"  created  {entity['created_at']}",
        f"mentions ({len(mentions)})",
    ]
    rows = [
        (
            m["observation"]["name"],
            m["observation"]["rule"],
            f"{m['observation']['confidence']:.2f}",
            m["drawer"],
            m["provenance"].get("extractor") or "-",
        )
        for m in mentions
    ]
    if rows:
        lines.extend(f"  {row}" for row in table(_MENTION_HEADERS, rows).splitlines())
    lines.append(f"pending review links ({len(candidates)})")
    reviews = [
        (_entity(c["entity"]), f"{c['similarity']:.2f}", c["side"], c["reason"]) for c in candidates
    ]
    if reviews:
        lines.extend(f"  {row}" for row in table(_REVIEW_HEADERS, reviews).splitlines())
    settled = found.get("settled", [])
    lines.append(f"settled review links ({len(settled)})")
    rows = [
        (_entity(c["entity"]), c["status"], f"{c['similarity']:.2f}", c["side"], c["reason"])
        for c in settled
    ]
    if rows:
        lines.extend(f"  {row}" for row in table(_SETTLED_HEADERS, rows).splitlines())
    return "\n".join(lines)


def review_links_report(answer: Json) -> str:
    """Review links best first: similarity, status, reason, the older entity (A) and the newer
    (B), each with its id, as `castlegraph review same|different A B` takes them."""
    links = answer["links"]
    if not links:
        return "no review links"
    rows = [
        (
            f"{link['similarity']:.2f}",
            link["status"],
            link["reason"],
            _entity(link["a"]),
            _entity(link["b"]),
        )
        for link in links
    ]
    more = ["(more links: raise --limit)"] if answer.get("more") else []
    return "\n".join([table(_LINK_HEADERS, rows), *more])


def settlement(answer: Json) -> str:
    """A settled link: the older entity as it is now, and what the verdict undid."""
    lines = [f"settled; {_entity(answer)} has aliases: {', '.join(answer['aliases']) or '-'}"]
    if answer.get("undone"):
        lines.append(f"undid the earlier verdict `{answer['undone']}`")
    return "\n".join(lines)


_LINK_HEADERS = ("SIMILARITY", "STATUS", "REASON", "A (OLDER)", "B (NEWER)")
_MENTION_HEADERS = ("NAME", "RULE", "CONFIDENCE", "DRAWER", "EXTRACTOR")
_REVIEW_HEADERS = ("ENTITY", "SIMILARITY", "SIDE", "REASON")
_SETTLED_HEADERS = ("ENTITY", "VERDICT", "SIMILARITY", "SIDE", "REASON")


def migration_report(answer: Json) -> str:
    lines = []
    if "migrated" in answer:
        done = answer["migrated"]
        lines.append(f"applied {len(done)} migration(s)" if done else "nothing to migrate")
    rows = [
        ("applied", m["version"], m["applied_at"], m["changed"], m["name"])
        for m in answer["applied"]
    ]
    rows += [("pending", m["version"], "-", "-", m["name"]) for m in answer["pending"]]
    lines.append(table(("STATUS", "VERSION", "APPLIED", "CHANGED", "NAME"), rows))
    return "\n".join(lines)
