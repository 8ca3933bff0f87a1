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


def test_a_dip_while_a_high_start_settles_is_the_warm_up() -> None:
    """A start above the steady level is the warm-up until the series has come down to it (the
    bursty table of bench/drop_quality's quiet-bursty: 430 -> 250 tps over its first 25 s, with a
    -33 % dip at 6-9 s on the way, was a drop); a drop after a start at the level is still found."""
    t = np.arange(1.0, 91.0)
    rng = np.random.default_rng(16)
    settle = np.r_[[410.0] * 5, [265.0] * 4, [420.0] * 3, np.linspace(380, 260, 12)]
    v = np.r_[settle, rng.normal(255, 12, len(t) - len(settle))]
    assert detect(t, v) == []
    level = rng.normal(255, 12, len(t))
    level[5:9] = 150.0
    (d,) = detect(t, level)
    assert (d.start, d.end) == (5, 9)
