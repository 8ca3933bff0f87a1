"""A lagging cause's own window (app/analysis/mechanism.py): a purge lag's history list growing."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.drops import Drop
from benchlens.app.analysis.mechanism import history_growth


def _drop(start: float, end: float) -> Drop:
    return Drop(start, end, 0.9, 400.0, 5.0, 0.9 * (end - start))


def test_the_history_list_grows_before_the_drop_and_stops_before_it_ends() -> None:
    """Snapshots every 2 s, shaped as the recorded purge lags: the list swings around 800 while
    purge runs; a read view opens at 31 s, the list grows 400/s while the throughput holds, then
    20/s once it has collapsed (few commits), steadily (purge stopped); the view closes at 69 s
    and purge empties the list; the throughput fell 40-80 s."""
    t = np.arange(0.0, 100.0, 2.0)
    rng = np.random.default_rng(1)
    h = 800.0 + rng.normal(0, 150, len(t))
    grow = (t > 31) & (t < 70)
    h[grow] = 800.0 + np.minimum(t[grow] - 31, 10) * 400.0 + np.maximum(t[grow] - 41, 0) * 20.0
    after = t >= 70
    h[after] = np.maximum(h[after], h[grow][-1] - (t[after] - 69) * 800.0)
    drop = _drop(40.0, 80.0)
    w = history_growth(t, h, drop)
    assert w is not None and (w.start, w.end) == (31.0, 69.0)
    assert w.said(drop) == "history list growing from 9 s before the drop to 11 s before its end"


def test_no_window_without_growth() -> None:
    t = np.arange(0.0, 100.0, 2.0)
    h = 800.0 + np.random.default_rng(2).normal(0, 300, len(t))  # no read view: swings only
    assert history_growth(t, h, _drop(40.0, 80.0)) is None
    assert history_growth(t[:2], h[:2], _drop(40.0, 80.0)) is None  # too few snapshots
