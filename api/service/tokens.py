"""How a configured bearer token is read: `SECRET`, `AGENT:SECRET` or `:SECRET` (design §8.1).

A token that names an agent acts only as that agent; the others act for the operator. A list
where two tokens share a secret is refused at start: the secret alone decides who calls, so it
must name one caller.
"""

from collections.abc import Iterable
from dataclasses import dataclass

SETTING = "api.tokens"


@dataclass(frozen=True, slots=True)
class Token:
    """One configured token:

    - `SECRET` with no `:`: an operator token;
    - `AGENT:SECRET`: an agent token: the text before the first `:` names the agent, the rest
      is the secret the agent presents (`Authorization: Bearer SECRET`);
    - `:SECRET`: the explicit operator form, for a secret that holds a `:` itself (`:ab:cd` is
      the operator token `ab:cd`), which would otherwise be read as an agent token.
    """

    secret: bytes
    agent: str | None

    @classmethod
    def parse(cls, raw: str) -> "Token":
        """The token a configured entry stands for; `ValueError` (naming the setting, never
        the secret) for an entry with no secret."""
        agent, separator, secret = raw.partition(":")
        if not separator:
            agent, secret = "", raw
        if not secret:
            raise ValueError(f"{SETTING}: an entry has no secret after its ':' (or is empty)")
        return cls(secret.encode(), agent or None)


def parse_tokens(entries: Iterable[str]) -> list[Token]:
    """Every configured token, refusing entries without a secret and secrets given twice."""
    tokens = [Token.parse(entry) for entry in entries]
    seen: set[bytes] = set()
    for token in tokens:
        if token.secret in seen:
            raise ValueError(
                f"{SETTING}: two entries share one secret, so it would not say who calls"
            )
        seen.add(token.secret)
    return tokens
