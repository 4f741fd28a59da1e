"""The nickname list of the person rule (design §5.3): `nicknames`' hand-curated `names.csv`.

The PyPI package `nicknames` (Apache-2.0, Carlton Northern's list of about 2,700 English given
names and their nicknames, `robert` → `bob`) ships the CSV in its wheel and works offline. It is
small (tens of kilobytes), so it is read here, once per process, into plain sets: no child
process, no hashes. Only its `has_nickname` rows are kept; nothing else in the file is a pairing.
"""

from functools import lru_cache

from castlegraph.resolver.nicknames import Nicknames

NICKNAME_RELATION = "has_nickname"


@lru_cache(maxsize=1)
def load_nicknames() -> Nicknames:
    """The list, read on first use and shared by every runtime of the process."""
    from nicknames import name_triplets  # noqa: PLC0415  # read once, on first use

    return Nicknames.of(
        (row.name1, row.name2) for row in name_triplets() if row.relationship == NICKNAME_RELATION
    )
