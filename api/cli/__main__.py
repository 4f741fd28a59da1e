"""`python -m castlegraph.api.cli`: the same as the `castlegraph` command."""

from castlegraph.api.cli.app import app

app()
