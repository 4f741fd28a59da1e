"""`castlegraph review`: review links listed with filters and settled from the command line,
in-process on a temporary data directory or on Neo4j (design §11, listing review links)."""

from collections.abc import Callable
from pathlib import Path

from tests.e2e.test_cli import Cli, answer, seed_mentions
from tests.support.backends import Backend
from tests.support.processes import Service


def test_review_lists_settles_and_undoes_links(data_dir: Path, cli: Cli, backend: Backend) -> None:
    seed_mentions(
        backend,
        data_dir,
        [
            ("Python 3.11", "tool"),
            ("Python 3.12", "tool"),
            ("Maria", "person"),
            ("Mario", "person"),
        ],
    )
    listed = answer(cli(data_dir, "review", "--json"))
    assert [(link["a"]["name"], link["b"]["name"]) for link in listed["links"]] == [
        ("Python 3.11", "Python 3.12"),  # 0.9
        ("Maria", "Mario"),  # 0.8
    ]
    assert listed["more"] is False
    [tool] = answer(cli(data_dir, "review", "--kind", "tool", "--json"))["links"]
    assert (tool["reason"], tool["status"]) == ("digit_edit", "pending")
    first = answer(cli(data_dir, "review", "--limit", "1", "--json"))
    assert (len(first["links"]), first["more"]) == (1, True)
    human = cli(data_dir, "review").stdout
    assert "SIMILARITY" in human and "digit_edit" in human
    assert f"Python 3.11 (tool) {tool['a']['id']}" in human

    older, newer = tool["a"]["id"], tool["b"]["id"]
    same = answer(cli(data_dir, "review", "same", newer, older, "--json"))
    assert (same["id"], same["aliases"]) == (older, ["Python 3.12"])
    assert [link["b"]["name"] for link in answer(cli(data_dir, "review", "--json"))["links"]] == [
        "Mario"
    ]
    [settled] = answer(cli(data_dir, "review", "--status", "same", "--json"))["links"]
    assert (settled["a"]["id"], settled["b"]["id"]) == (older, newer)
    [python] = answer(cli(data_dir, "entity", "Python 3.11", "--json"))["entities"]
    assert [(c["entity"]["name"], c["status"]) for c in python["settled"]] == [
        ("Python 3.12", "same")
    ]
    shown = cli(data_dir, "entity", "Python 3.11").stdout
    assert "settled review links (1)" in shown and "same" in shown

    undone = cli(data_dir, "review", "different", older, newer)
    assert undone.exit_code == 0, undone.output
    assert "undid the earlier verdict `same`" in undone.stdout
    [python] = answer(cli(data_dir, "entity", "Python 3.11", "--json"))["entities"]
    assert python["entity"]["aliases"] == []
    assert [c["status"] for c in python["settled"]] == ["different"]


def test_review_needs_a_verdict_and_two_ids(data_dir: Path, cli: Cli, backend: Backend) -> None:
    one = cli(data_dir, "review", "same", "only-one")
    assert one.exit_code == 2 and "needs two entity ids" in one.stderr
    unknown = cli(data_dir, "review", "maybe", "a", "b")
    assert unknown.exit_code == 2
    missing = cli(data_dir, "review", "same", "no-such", "entity")
    assert missing.exit_code == 1
    assert missing.stderr.strip() == "castlegraph: no entity with id 'no-such'"


def test_review_over_http(
    data_dir: Path, spawn: Callable[..., Service], cli: Cli, backend: Backend
) -> None:
    seed_mentions(backend, data_dir, [("Maria", "person"), ("Mario", "person")])
    service = spawn(data_dir)
    service.wait_healthy()
    url = ("--url", service.url)
    [link] = answer(cli(None, "review", *url, "--json"))["links"]
    maria, mario = link["a"]["id"], link["b"]["id"]
    same = answer(cli(None, "review", "same", mario, maria, *url, "--json"))
    assert same["aliases"] == ["Mario"]
    [shown] = answer(cli(None, "entity", "Maria", *url, "--json"))["entities"]
    assert [(c["entity"]["id"], c["status"]) for c in shown["settled"]] == [(mario, "same")]
    undone = answer(cli(None, "review", "different", maria, mario, *url, "--json"))
    assert (undone["aliases"], undone["undone"]) == ([], "same")
    assert (
        answer(cli(None, "review", "--status", "different", *url, "--json"))["links"][0]["b"]["id"]
        == mario
    )
