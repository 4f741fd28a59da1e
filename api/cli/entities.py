"""`castlegraph resolve` (the dry run) and `castlegraph entity` (an entity, its evidence and how
its review links were settled)."""

from typing import Annotated

import typer

from castlegraph.api.cli.options import CommonOptions, fail, with_common_options
from castlegraph.api.cli.output import emit, entity_report, resolution
from castlegraph.api.client.protocol import Client, Json

MAX_PAGES = 100  # 10,000 entities of one key: far past anything a person reads


@with_common_options()
def resolve(  # typer calls commands with keywords
    *,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="The name as an extractor would see it.")
    ],
    kind: Annotated[str, typer.Option(help="person, tool, place, ... or `other`.")],
    options: CommonOptions,
) -> None:
    """What NAME would resolve to, with the rule and evidence. Writes nothing."""
    with options.client(options.settings()) as client:
        answer = client.resolve(name, kind)
    emit(answer, options.as_json, resolution)


def _found(client: Client, name: str, kind: str | None) -> list[Json]:
    """Every entity whose name or alias has NAME's key, following the pages."""
    found: list[Json] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        page = client.find_entities(name, kind, cursor)
        found.extend(page["entities"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    return found


@with_common_options()
def entity(  # typer calls commands with keywords
    *,
    name: Annotated[
        str, typer.Argument(metavar="NAME", help="A name or alias (compared by entity key).")
    ],
    kind: Annotated[str | None, typer.Option(help="Only entities of this kind.")] = None,
    options: CommonOptions,
) -> None:
    """Show the entities named NAME: aliases, mentions, pending review links and the settled
    ones (`castlegraph review` settles them)."""
    with options.client(options.settings()) as client:
        answer = {
            "entities": [
                {
                    "entity": found,
                    "mentions": client.entity_mentions(found["id"], caller=None),
                    "candidates": client.entity_candidates(found["id"]),
                    "settled": client.entity_candidates(found["id"], "settled"),
                }
                for found in _found(client, name, kind)
            ]
        }
    if not answer["entities"]:
        fail(f"no entity named {name!r}" + (f" of kind {kind!r}" if kind else ""))
    emit(answer, options.as_json, entity_report)
