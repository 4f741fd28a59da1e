"""Which (probe, row) hits of an in-memory index lookup a rule may use, weighed in bulk before
any entity is read (`graph.indexes.entity_index`): the pure-Python twin of the compiled core's
`may_use`. Apart from `resolver.entity_pairs`, whose rules import no numpy.
"""

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from castlegraph.resolver.entity_pairs import may_pair, may_pair_all


def may_use(
    senders: Sequence[str | None],
    row_keys: Sequence[tuple[str, ...] | None],
    pair_probe: NDArray[np.intp],
    pair_row: NDArray[np.intp],
) -> NDArray[np.bool_]:
    """For each (probe, row) pair of an index lookup, whether one of the row's keys may pair
    with the probe's sender (`may_pair`; either unknown, None: yes): the rows' first keys all at
    once (`may_pair_all`), then the other keys of the few rows with aliases that the first did
    not keep. The compiled core's twin (`resolver.core.may_use`)."""
    sender_of = np.array(senders, dtype=object)[pair_probe]
    first_of = np.array([k[0] if k is not None else None for k in row_keys], dtype=object)[pair_row]
    known = (
        np.array([k is not None for k in senders], dtype=np.bool_)[pair_probe]
        & np.array([keys is not None for keys in row_keys], dtype=np.bool_)[pair_row]
    )
    kept = np.ones(len(pair_probe), dtype=np.bool_)
    weighed = np.flatnonzero(known)
    kept[weighed] = may_pair_all(sender_of[weighed].tolist(), first_of[weighed].tolist())
    aliased = np.array([keys is not None and len(keys) > 1 for keys in row_keys], dtype=np.bool_)
    for i in np.flatnonzero(known & ~kept & aliased[pair_row]).tolist():
        keys = row_keys[pair_row[i]]
        assert keys is not None  # known
        kept[i] = any(may_pair(sender_of[i], key) for key in keys[1:])
    return kept
