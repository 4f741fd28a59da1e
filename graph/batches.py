"""Deletes that run in bounded transactions: a statement that removes at most `$limit` things
and returns how many, repeated until a pass removes fewer (a transaction's memory stays small
however many there are; Aura bounds it)."""

from typing import Any

from castlegraph.graph.backends.store import GraphStore


def delete_in_batches(store: GraphStore, statement: str, *, batch: int, **params: Any) -> int:
    """Run `statement` with `limit=batch` until a pass removes fewer than `batch`; the total.
    The statement answers one row whose one value is how many it removed."""
    total = 0
    while True:
        rows = store.write(lambda tx: tx.run(statement, limit=batch, **params), use_case=statement)
        removed = int(next(iter(rows[0].values()))) if rows else 0
        total += removed
        if removed < batch:
            return total
