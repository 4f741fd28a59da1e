"""`python -m castlegraph`: the same as the `castlegraph` command."""

from castlegraph.api.cli.app import app

app()
