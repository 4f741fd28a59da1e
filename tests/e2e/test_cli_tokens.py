"""The CLI over HTTP presents its configured token as the service expects it.

A token configured as `AGENT:SECRET` is presented as `SECRET` (the service learns the agent from
it); the CLI once sent the whole `AGENT:SECRET`, which no service accepts.
"""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from castlegraph.api.service.address import ADDRESS_FILE
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

    # The service recorded where it listens beside its data directory's lock, and no token.
    record = (tmp_path / "data" / ADDRESS_FILE).read_text()
    assert set(json.loads(record)) == {"scheme", "host", "port", "pid"}
    assert all(part not in record for part in token.split(":"))  # neither agent nor secret
    local = ("resolve", "Ada Lovelace", "--kind", "person", "--json")  # no --url
    found = cli(tmp_path / "data", *local, env=tokens)
    assert found.exit_code == 0, found.output
    assert f"talking to it at {service.url}" in found.stderr
    assert json.loads(found.stdout)["decision"] == "new"
