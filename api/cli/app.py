"""The `castlegraph` command line (typer): registers the commands each `api.cli` module defines.

`serve` runs the HTTP service (`api.cli.serve`, the one CLI module that composes the web stack).
The others reach castlegraph through `api.client.connect`: over HTTP with `--url` (or
`CASTLEGRAPH_URL`), else in-process on the data directory, falling back to the running service
that holds it (`migrate` and `export` are in-process only). `--json` prints what the HTTP API
returns.
"""

import typer

from castlegraph.api import VERSION
from castlegraph.api.cli import doctor as doctor_commands
from castlegraph.api.cli import entities as entities_commands
from castlegraph.api.cli import export as export_commands
from castlegraph.api.cli import jobs as jobs_commands
from castlegraph.api.cli import mcp as mcp_commands
from castlegraph.api.cli import migrate as migrate_commands
from castlegraph.api.cli import review as review_commands
from castlegraph.api.cli import serve as serve_commands

app = typer.Typer(
    help="castlegraph: entity resolution and memory deduplication.",
    no_args_is_help=True,
)


app.command()(serve_commands.serve)


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(f"castlegraph {VERSION}")


app.command()(jobs_commands.mine)
app.command()(jobs_commands.checkpoint)
app.command()(migrate_commands.migrate)
app.command()(entities_commands.resolve)
app.command()(entities_commands.entity)
app.command()(review_commands.review)
app.command()(jobs_commands.jobs)
app.command()(mcp_commands.mcp)
app.command()(doctor_commands.doctor)
app.command()(export_commands.export)


if __name__ == "__main__":
    app()
