"""`castlegraph export`: an entity's neighbourhood or a room, as GraphML or a Cypher script.

    castlegraph export --entity "Ada Lovelace" [--kind person] [--format graphml|cypher] [-o F]
    castlegraph export --wing infra --room ops --format cypher -o ops.cypher

It reads in-process (`_read`) and writes nothing to the graph.
"""

import enum
from pathlib import Path
from typing import Annotated

import typer

from castlegraph.api.cli.options import (
    EXIT_USAGE,
    CommonOptions,
    fail,
    reported_errors,
    with_common_options,
)
from castlegraph.api.client.connect import open_exclusive
from castlegraph.api.export.cypher import script
from castlegraph.api.export.graphml import graphml
from castlegraph.api.service.settings import Settings
from castlegraph.graph.export import Subgraph, entity_subgraph, room_subgraph


class ExportFormat(enum.StrEnum):
    graphml = "graphml"
    cypher = "cypher"


def _read(
    settings: Settings, entity: str | None, kind: str | None, place: tuple[str, str]
) -> Subgraph:
    """Read in-process: on Neo4j always (nothing is locked), on the embedded database only while
    no service holds the data directory (stop it first, as for `migrate`). Nothing is written, so
    neither the schema nor the migrations are touched."""
    backend = open_exclusive(settings, "the export reads the embedded database in-process")
    try:
        if entity is not None:
            return entity_subgraph(backend.store, entity, kind)
        return room_subgraph(backend.store, *place)
    finally:
        backend.close()


@with_common_options(json=False, url=False)
def export(  # typer calls commands with keywords
    *,
    entity: Annotated[
        str | None, typer.Option(help="Export this entity (name or alias) and its neighbourhood.")
    ] = None,
    kind: Annotated[str | None, typer.Option(help="With --entity: only this kind.")] = None,
    wing: Annotated[str | None, typer.Option(help="With --room: export this room.")] = None,
    room: Annotated[str | None, typer.Option(help="With --wing: export this room.")] = None,
    fmt: Annotated[
        ExportFormat, typer.Option("--format", help="graphml, or cypher (CREATE statements).")
    ] = ExportFormat.graphml,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write to this file, not stdout.")
    ] = None,
    options: CommonOptions,
) -> None:
    """Write a subgraph: an entity's neighbourhood (--entity) or a room (--wing --room)."""
    room_given = wing is not None or room is not None
    if entity is None and not room_given:
        fail("give either --entity NAME or --wing W --room R", EXIT_USAGE)
    if entity is not None and room_given:
        fail("--entity cannot be combined with --wing/--room", EXIT_USAGE)
    if room_given and (wing is None or room is None):
        fail("--wing and --room go together", EXIT_USAGE)
    settings = options.settings()
    place = (wing or "", room or "")
    with reported_errors():
        graph = _read(settings, entity, kind, place)
    title = f"entity {entity}" + (f" ({kind})" if kind else "") if entity else f"room {wing}/{room}"
    text = graphml(graph) if fmt is ExportFormat.graphml else script(graph, title)
    if output is None:
        typer.echo(text, nl=False)
        return
    output.write_text(text, encoding="utf-8")
    typer.echo(
        f"castlegraph: wrote {len(graph.nodes)} nodes and {len(graph.edges)} relationships "
        f"to {output}",
        err=True,
    )
