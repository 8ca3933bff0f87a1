"""The drawing pyramid keeps every peak and trough at any zoom."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.decimate import MinMaxPyramid


def test_a_one_sample_stall_survives_every_zoom() -> None:
    x = np.arange(86_400, dtype=float)
    y = np.full_like(x, 1000.0)
    y[51_234] = 0.0  # one second at zero
    y[70_000] = 5000.0  # and one spike
    p = MinMaxPyramid(x, y)
    for x0, x1, px in ((0, 86_400, 800), (40_000, 60_000, 300), (51_000, 51_500, 1000)):
        xs, ys = p.view(x0, x1, px)
        assert len(xs) <= 2 * px + 4 or len(xs) <= 520
        assert ys.min() == 0.0
    xs, ys = p.view(0, 86_400, 800)
    assert ys.max() == 5000.0 and len(xs) <= 1600


def test_close_zoom_returns_the_raw_samples() -> None:
    x = np.arange(10_000, dtype=float)
    y = np.sin(x)
    xs, ys = MinMaxPyramid(x, y).view(100.5, 120.5, 1000)
    assert np.array_equal(xs, x[100:122]) and np.array_equal(ys, y[100:122])


def test_nan_gaps_do_not_hide_values() -> None:
    x = np.arange(1000, dtype=float)
    y = np.ones(1000)
    y[::2] = np.nan
    _, ys = MinMaxPyramid(x, y).view(0, 1000, 20)
    assert np.nanmin(ys) == 1.0 and not np.isnan(ys).all()
