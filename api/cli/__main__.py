"""`python -m api.cli`: the same as the `castlegraph` command."""

from api.cli.app import app

app()
