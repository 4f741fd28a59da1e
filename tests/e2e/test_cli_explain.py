"""`castlegraph resolve NAME --kind KIND` says why (design §5.6): which lists know each word,
and for each candidate whether it converged, got a review link (a nickname pair here) or not."""

from pathlib import Path

from tests.e2e.test_cli import Cli, answer, seed_mentions
from tests.support.backends import Backend


def test_resolve_explains_a_nickname_link_and_the_lists_of_each_word(
    data_dir: Path, cli: Cli, backend: Backend
) -> None:
    seed_mentions(backend, data_dir, [("Robert Smith", "person"), ("Robert Smith", "ship")])

    shown = cli(data_dir, "resolve", "Bob Smith", "--kind", "person")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[0] == "new entity (rule new, confidence 1.00)"
    assert "key 'bob smith', a kind that holds people" in lines
    assert "  bob: common words: yes, given names and surnames: yes, nicknames: yes" in lines, lines
    [pair] = [line for line in lines if line.startswith("  Robert Smith [")]
    assert "(person)" in pair
    assert pair.endswith(
        ": review link (nickname): 'bob' and 'robert' are a nickname pair, the same surname key: "
        "a review link, never a convergence"
    )
    assert lines[-1] == "nothing was written (dry run)"

    ship = answer(cli(data_dir, "resolve", "Bob Smith", "--kind", "ship", "--json"))
    assert (ship["possibly_same_as"], ship["explain"]["pairs"]) == ([], [])
    [bob] = [w for w in ship["explain"]["words"] if w["word"] == "bob"]
    assert {x["name"]: x["consulted"] for x in bob["lists"]} == {
        "common words": True,
        "given names and surnames": False,
        "nicknames": False,
    }
