"""The points drawn are the same however they are computed: the window's pyramid (each level from
the one below), the export's one-view shortcut, and the plain min/max of each bin's samples."""

from __future__ import annotations

import numpy as np
import pytest

from benchlens.app.analysis.decimate import PYRAMID, MinMaxPyramid, minmax_view


def series(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = np.cumsum(rng.uniform(0.5, 1.5, n))  # uneven sampling
    y = rng.normal(50, 10, n).round(1)
    y[rng.integers(0, n, max(1, n // 40))] = np.nan  # gaps
    y[n // 3 : n // 3 + n // 10] = np.nan  # a gap longer than a bin
    y[rng.integers(0, n, 5)] = 0.0  # 1-sample stalls
    return x, y


@pytest.mark.parametrize("n", [300, 4097, 86_400, 86_403])
def test_every_level_is_the_min_and_max_of_its_samples(n: int) -> None:
    x, y = series(n)
    size = PYRAMID.factor
    for bx, lo, hi in MinMaxPyramid(x, y).levels:
        starts = np.arange(0, n, size)
        with np.errstate(invalid="ignore"):
            assert np.array_equal(lo, np.fmin.reduceat(y, starts), equal_nan=True)
            assert np.array_equal(hi, np.fmax.reduceat(y, starts), equal_nan=True)
        assert np.array_equal(bx, x[starts])
        size *= PYRAMID.factor


@pytest.mark.parametrize("n", [10, 257, 4097, 86_400, 100_003])
def test_the_export_s_view_is_the_window_s(n: int) -> None:
    x, y = series(n, seed=n)
    pyramid = MinMaxPyramid(x, y)
    span = x[-1] - x[0]
    for pixels in (10, 300, 677, 1100, 2000):
        for f0, f1 in ((-1.0, 2.0), (0.1, 0.3), (0.5, 0.5001), (0.2, 0.95)):
            x0, x1 = x[0] + f0 * span, x[0] + f1 * span
            want = pyramid.view(x0, x1, pixels)
            got = minmax_view(x, y, x0, x1, pixels)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1], equal_nan=True)
