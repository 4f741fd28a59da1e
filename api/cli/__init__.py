"""The `castlegraph` command line: the typer app, shared options, output, progress and one
module per command group."""
