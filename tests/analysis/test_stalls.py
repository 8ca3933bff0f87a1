"""A stall is never the run's level: a throughput at zero for most of the run (a global read lock
that queued every writer from 30 s to the end of a 162 s run, bench/drop_quality's
global-read-lock-end-bursty) is one drop to the end, not the steady state."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.drops import detect


def test_a_stall_over_most_of_the_run_to_its_end_is_one_drop() -> None:
    rng = np.random.default_rng(14)
    t = np.arange(1.0, 163.0)
    v = np.where(t <= 30, rng.normal(300, 45, len(t)).clip(0), 0.0)  # bursty, then nothing
    (d,) = detect(t, v)
    assert d.start == 30 and d.end == 162 and d.depth == 1.0


def test_zeros_of_a_short_stall_leave_the_level_where_it_was() -> None:
    rng = np.random.default_rng(15)
    t = np.arange(1.0, 121.0)
    v = rng.normal(600, 30, len(t))
    v[50:58] = 0.0
    (d,) = detect(t, v)
    assert (d.start, d.end) == (50, 58) and 550 < d.baseline < 650
