"""importers._tokens.ahead: the thread that reads chunks, scans them and runs an importer ahead of
the SQL. What every import relies on: the same items in the same order, an error raised where it
happened (after the items made before it), a caller stopping early stopping the thread and
closing the source, and the byte budget holding the thread back."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from benchlens.importers._tokens import ahead


def test_the_same_items_in_the_same_order() -> None:
    assert list(ahead(range(1000), depth=3)) == list(range(1000))
    assert list(ahead(iter([]))) == []


def test_an_error_is_raised_in_its_place() -> None:
    def items() -> Iterator[int]:
        yield 1
        yield 2
        raise ValueError("line 3: unreadable")

    got = []
    with pytest.raises(ValueError, match="line 3"):
        for x in ahead(items()):
            got.append(x)
    assert got == [1, 2]


def test_stopping_early_stops_the_thread_and_closes_the_source() -> None:
    closed = threading.Event()
    made = []

    def items() -> Iterator[int]:
        try:
            for i in range(10_000):
                made.append(i)
                yield i
        finally:
            closed.set()

    with contextlib.closing(ahead(items(), depth=2, name="test-ahead")) as got:
        assert [next(got) for _ in range(3)] == [0, 1, 2]
    assert closed.wait(5)
    assert len(made) <= 3 + 2 + 1  # taken, waiting in the queue, the one being made when it stopped
    assert not any(t.name == "test-ahead" for t in threading.enumerate())


def test_the_byte_budget_holds_the_thread_back() -> None:
    """With a size, as many items wait as `depth` bytes hold (one always may)."""
    made: list[int] = []

    def items() -> Iterator[np.ndarray]:
        for i in range(20):
            made.append(i)
            yield np.zeros(100)  # 800 bytes

    got = ahead(items(), depth=2000, size=lambda a: a.nbytes)
    first = next(got)
    deadline = time.monotonic() + 5
    while len(made) < 4 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)  # had it no budget, it would make all 20 now
    assert first.nbytes == 800
    assert len(made) <= 1 + 2 + 1  # taken, two of 800 within 2000 bytes, the one waiting for room
    assert len([first, *got]) == 20
    huge = ahead(iter([np.zeros(1000)]), depth=10, size=lambda a: a.nbytes)
    assert len(next(huge)) == 1000  # one item larger than the budget still passes


def test_items_are_made_in_the_callers_numpy_error_state() -> None:
    def items() -> Iterator[float]:
        yield float(np.float64(1.0) / np.float64(0.0))

    with np.errstate(divide="raise"), pytest.raises(FloatingPointError):
        list(ahead(items()))
