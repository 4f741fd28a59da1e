"""How jobs cut their items into batches for `graph.drawers.drawer_batch.write_drawers`.

A batch is written in one candidate read and one statement, and the job saves its progress
after it: large enough that those round trips cost little per item, small enough that a
cancel or a stop is seen within a fraction of a second and one statement stays small.
"""

from collections.abc import Iterator

BATCH_ITEMS = 25
"""Items per batch: large enough that a batch's round trips cost little per item, small
enough that a cancel or a stop is seen within a fraction of a second and that the one write
statement does not hold up the service's other writes (the embedded database runs one write
at a time: under `bench load`, 200 doubled the p99 of single drawer writes; design §4.4)."""
BATCH_BYTES = 512 * 1024
"""A batch also ends when its contents reach this size (items may be up to 1 MiB each)."""


def batches(sizes: list[int], start: int) -> Iterator[range]:
    """Consecutive ranges of item indexes from `start`, bounded by count and by bytes (at
    least one item each)."""
    index = start
    while index < len(sizes):
        end, total = index, 0
        while end < len(sizes) and end - index < BATCH_ITEMS:
            if end > index and total + sizes[end] > BATCH_BYTES:
                break
            total += sizes[end]
            end += 1
        yield range(index, end)
        index = end
