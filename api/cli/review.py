"""`castlegraph review`: the review links of the whole palace, listed and settled (design §11).

Without a verdict it lists the links of one status (pending unless `--status`), best first, as
`GET /api/review-links` pages them; `same A B` and `different A B` settle the link between two
entities as `POST /api/entities/{A}/candidates/{B}` does, in either order. `different` on a
link settled `same` undoes it: the alias that `same` recorded goes again.
"""

from enum import StrEnum
from typing import Annotated

import typer

from castlegraph.api.cli.options import EXIT_USAGE, CommonOptions, fail, with_common_options
from castlegraph.api.cli.output import emit, review_links_report, settlement
from castlegraph.api.client.protocol import Client, Json

DEFAULT_SHOWN = 50


class Verdict(StrEnum):
    same = "same"
    different = "different"


class Status(StrEnum):
    pending = "pending"
    same = "same"
    different = "different"


def _links(
    client: Client, status: str, kind: str | None, reason: str | None, limit: int
) -> tuple[list[Json], bool]:
    """Up to `limit` links, following the pages; whether more were left."""
    links: list[Json] = []
    cursor: str | None = None
    while len(links) < limit:
        page = client.review_links(status, kind, reason, cursor)
        links.extend(page["links"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    return links[:limit], cursor is not None or len(links) > limit


@with_common_options()
def review(  # typer calls commands with keywords
    *,
    verdict: Annotated[
        Verdict | None,
        typer.Argument(help="Settle the link between A and B; leave out to list links."),
    ] = None,
    a: Annotated[str | None, typer.Argument(metavar="A", help="An entity id.")] = None,
    b: Annotated[str | None, typer.Argument(metavar="B", help="The other entity's id.")] = None,
    status: Annotated[Status, typer.Option(help="Which links to list.")] = Status.pending,
    kind: Annotated[
        str | None, typer.Option(help="Only links with an entity of this kind.")
    ] = None,
    reason: Annotated[str | None, typer.Option(help="Only links of this reason.")] = None,
    limit: Annotated[
        int, typer.Option(min=1, max=10_000, help="List at most this many links.")
    ] = DEFAULT_SHOWN,
    options: CommonOptions,
) -> None:
    """List review links between look-alike entities, or settle one: `same A B` records B's
    name as an alias of the older one, `different A B` closes the link (and undoes `same`)."""
    if verdict is not None and (a is None or b is None):
        fail(f"`review {verdict}` needs two entity ids: A and B", EXIT_USAGE)
    if verdict is None and a is not None:
        fail("give a verdict (same or different) before the two entity ids", EXIT_USAGE)
    with options.client(options.settings()) as client:
        if verdict is not None and a is not None and b is not None:
            answer = client.settle_review_link(a, b, {"verdict": str(verdict)})
            emit(answer, options.as_json, settlement)
            return
        links, more = _links(client, str(status), kind, reason, limit)
    emit({"links": links, "more": more}, options.as_json, review_links_report)
