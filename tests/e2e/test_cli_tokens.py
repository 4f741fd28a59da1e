"""The CLI over HTTP presents its configured token as the service expects it.

A token configured as `AGENT:SECRET` is presented as `SECRET` (the service learns the agent from
it); the CLI once sent the whole `AGENT:SECRET`, which no service accepts.
"""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.cli_runner import cli
from tests.support.processes import Service

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("token", ["plain-secret", "alice:s3cret"])
def test_the_cli_authenticates_with_a_plain_or_an_agent_token(
    token: str, tmp_path: Path, spawn: Callable[..., Service]
) -> None:
    tokens = {"CASTLEGRAPH_API_TOKENS": token}
    service = spawn(tmp_path / "data", env=tokens)
    service.wait_healthy()
    args = ("resolve", "Ada Lovelace", "--kind", "person", "--url", service.url, "--json")
    refused = cli(None, *args)  # no token configured on the client's side
    assert refused.exit_code == 1
    assert refused.stderr.strip() == "castlegraph: a valid bearer token is required"
    answered = cli(None, *args, env=tokens)
    assert answered.exit_code == 0, answered.output
    assert json.loads(answered.stdout)["decision"] == "new"
