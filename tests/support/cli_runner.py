"""`castlegraph` commands run in-process for tests, with the developer's settings kept out."""

from collections.abc import Mapping
from pathlib import Path

from typer.testing import CliRunner, Result

from castlegraph.api.cli.app import app

CLEAN_ENV: dict[str, str | None] = dict.fromkeys(
    (
        "CASTLEGRAPH_URL",
        "CASTLEGRAPH_CONFIG",
        "CASTLEGRAPH_DATA_DIR",
        "CASTLEGRAPH_PORT",
        "CASTLEGRAPH_HOST",
        "CASTLEGRAPH_NEO4J_URI",
        "CASTLEGRAPH_NEO4J_PASSWORD",
        "CASTLEGRAPH_API_TOKENS",
        "CASTLEGRAPH_EMBEDDINGS_PROVIDER",
        "CASTLEGRAPH_DEDUP_NEAR_THRESHOLD",
        "CASTLEGRAPH_MINE_ROOTS",
    )
)


def cli(data_dir: Path | None, *args: str, env: Mapping[str, str] | None = None) -> Result:
    """`castlegraph ARGS --data-dir DATA_DIR` (no `--data-dir` when None), exceptions raised."""
    argv = [*args, "--data-dir", str(data_dir)] if data_dir is not None else list(args)
    return CliRunner().invoke(app, argv, env={**CLEAN_ENV, **(env or {})}, catch_exceptions=False)
