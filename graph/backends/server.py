"""Which database server castlegraph talks to, and whether its statements run there.

Some statements scope a subquery with `CALL (x) { … }`, which Neo4j parses from 5.23 on, so the
Neo4j backend reads the server's version and edition when it starts (`castlegraph doctor` shows
them) and refuses a server older than `NEO4J_MINIMUM` at once with `UnsupportedServer`, rather
than statement by statement long after the start.
"""

import re
from dataclasses import dataclass

from castlegraph.graph.errors import UnsupportedServer

NEO4J_MINIMUM = (5, 23)
"""The oldest Neo4j whose Cypher castlegraph's statements use (`CALL (x) { … }`)."""
_VERSION = re.compile(r"(\d+)\.(\d+)(?:\.(\d+))?")


@dataclass(frozen=True, slots=True)
class Server:
    """What the database reports about itself: `product` ("Neo4j", "FalkorDB"), `version` as
    the server spells it, and `edition` ("community", "enterprise"; "" where none applies)."""

    product: str
    version: str
    edition: str = ""

    def __str__(self) -> str:
        edition = f" {self.edition}" if self.edition else ""
        return f"{self.product} {self.version}{edition}"


def version_numbers(version: str) -> tuple[int, int, int] | None:
    """`5.26.3` → (5, 26, 3), `2025.10` → (2025, 10, 0), `5.27-aura` → (5, 27, 0); None when
    the text starts with no `major.minor`.

    Neo4j's versions are `5.26.3` and, since 2025, calendar versions such as `2025.01.0`: both
    compare as tuples of numbers, and every calendar version is newer than every 5.x.
    """
    found = _VERSION.match(version.strip())
    if found is None:
        return None
    major, minor, patch = found.groups()
    return int(major), int(minor), int(patch or 0)


def require_neo4j(server: Server) -> Server:
    """`server`, if castlegraph's statements run on it; else `UnsupportedServer`."""
    numbers = version_numbers(server.version)
    minimum = ".".join(map(str, NEO4J_MINIMUM))
    if numbers is None or numbers[:2] < NEO4J_MINIMUM:
        found = "an unreadable version" if numbers is None else "version"
        raise UnsupportedServer(
            f"castlegraph needs Neo4j {minimum} or later; the server reports {found} "
            f"{server.version!r} ({server.edition or 'unknown'} edition)",
            {"found": server.version, "edition": server.edition, "minimum": minimum},
        )
    return server
