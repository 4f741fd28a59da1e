"""The configured token grammar: `SECRET`, `AGENT:SECRET`, or `:SECRET` for a secret with a `:`."""

import pytest
from pydantic import ValidationError

from castlegraph.api.service.settings import load_settings, scrub
from castlegraph.api.service.tokens import Token


@pytest.mark.parametrize(
    ("entry", "secret", "agent"),
    [
        ("plain-secret", b"plain-secret", None),
        ("ada:ada-secret", b"ada-secret", "ada"),
        ("ada:with:colons", b"with:colons", "ada"),
        (":ops:colon-secret", b"ops:colon-secret", None),
        (":no-colon", b"no-colon", None),
    ],
)
def test_each_form_names_its_secret_and_agent(entry: str, secret: bytes, agent: str | None) -> None:
    assert Token.parse(entry) == Token(secret, agent)


@pytest.mark.parametrize("entry", ["", ":", "ada:"])
def test_an_entry_without_a_secret_refuses_to_start_naming_the_setting(entry: str) -> None:
    with pytest.raises(ValidationError, match=r"api\.tokens: an entry has no secret"):
        load_settings(api={"tokens": ["good", entry]})


def test_a_secret_given_twice_refuses_to_start_without_showing_it() -> None:
    with pytest.raises(ValidationError, match=r"api\.tokens: two entries share") as refused:
        load_settings(api={"tokens": ["ada:shared-secret", "bob:shared-secret"]})
    assert "shared-secret" not in str(refused.value)
    with pytest.raises(ValidationError, match=r"api\.tokens: two entries share"):
        load_settings(api={"tokens": ["shared-secret", ":shared-secret"]})


def test_scrubbing_hides_the_secret_an_agent_presents() -> None:
    settings = load_settings(api={"tokens": ["ada:ada-presented"]})
    assert scrub("Bearer ada-presented", settings) == "Bearer ***"
