"""The timing the bench scripts share (each run as `python bench/NAME.py`, which puts bench/ on
sys.path): the best of n calls, the least disturbed by the other work of a shared machine."""

from __future__ import annotations

import time
from collections.abc import Callable


def best(f: Callable[[], object], n: int) -> float:
    """Seconds of the fastest of n calls of f."""
    times = []
    for _ in range(n):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)
