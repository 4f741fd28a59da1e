"""Bytes handed through a pipe between the service and its children (`api.service.children`):
every byte written, however little each write takes, and read back whole."""

import io

import pytest

from castlegraph.api.service.children import read_exactly, write_all


class _ShortWrites(io.BytesIO):
    """Takes at most `most` bytes a write, as a buffered pipe write a signal cut short."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most
        self.writes = 0

    def write(self, data: object) -> int:  # type: ignore[override]
        self.writes += 1
        return super().write(memoryview(data)[: self.most])  # type: ignore[arg-type]


class _ShortReads(io.BytesIO):
    def read(self, size: int | None = -1) -> bytes:
        return super().read(min(3, size if size is not None and size >= 0 else 3))


def test_every_byte_is_written_however_short_each_write() -> None:
    data = bytes(range(256)) * 40
    pipe = _ShortWrites(most=1000)
    write_all(pipe, data)
    assert pipe.getvalue() == data
    assert pipe.writes == 11


def test_a_read_takes_the_parts_until_it_has_them_all() -> None:
    pipe = _ShortReads(b"0123456789tail")
    assert read_exactly(pipe, 10) == b"0123456789"
    assert read_exactly(pipe, 4) == b"tail"


def test_a_pipe_that_ends_early_is_an_end_of_file() -> None:
    with pytest.raises(EOFError):
        read_exactly(_ShortReads(b"01234"), 10)
