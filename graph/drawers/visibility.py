"""Which drawers a caller may see (design §8.1): another agent's diary entries do not exist for
an agent's token.

The caller is the *viewer*: the agent its bearer token names, or None (no agent, or no token),
which sees everything. Every statement that reads drawers on a caller's behalf takes `$viewer`
and filters with `($viewer IS NULL OR coalesce(d.kind, '') <> 'diary' OR d.agent = $viewer)`,
so a page is full and a candidate search is scoped before anything is compared.
"""

DIARY_KIND = "diary"


def visible(kind: str, agent: str | None, viewer: str | None) -> bool:
    """The statements' `$viewer` rule, for a drawer already read.

    A diary entry (`kind: diary`) is private to its agent: to any other viewer it is as missing
    as an unknown id — not read, not compared against by a write, not paged through, not linked,
    embedded, mentioned or paired for review. Checking a drawer read by id is enough: its kind
    and agent never change, so a check then an act is as good as one statement.
    """
    return viewer is None or kind != DIARY_KIND or agent == viewer
