"""The shared options every command states once (`api.cli.options.with_common_options`)."""

import typer.main

from castlegraph.api.cli.app import app

SHARED = ["--json", "--url", "--data-dir", "--config"]
OFFERED = {
    "mine": SHARED,
    "checkpoint": SHARED,
    "jobs": SHARED,
    "resolve": SHARED,
    "entity": SHARED,
    "doctor": SHARED,
    "migrate": ["--json", "--data-dir", "--config"],
    "mcp": ["--url", "--data-dir", "--config"],
    "export": ["--data-dir", "--config"],
}


def test_each_command_offers_its_shared_options_after_its_own() -> None:
    commands = typer.main.get_command(app).commands  # type: ignore[attr-defined]
    for name, shared in OFFERED.items():
        flags = [param.opts[0] for param in commands[name].params]
        assert flags[-len(shared) :] == shared, name
        assert not set(flags[: -len(shared)]) & set(SHARED), name
        url = [param for param in commands[name].params if param.name == "url"]
        assert [param.envvar for param in url] == (["CASTLEGRAPH_URL"] if "--url" in shared else [])
