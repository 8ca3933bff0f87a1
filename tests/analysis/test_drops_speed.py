"""The detector's shortcuts give the values of the plain computation: row medians and a stretch's
median without numpy's median, the scan's table of standard errors, one steady state for a
series' drops and its steady span, no sort of a sorted series."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from benchlens.app.analysis import shifts
from benchlens.app.analysis.drops import SHORT_MEDIAN, detect, detection, nan_median, row_medians, steady_span
from benchlens.app.analysis.steps import find_steps
from tests.analysis.conftest import steady


@pytest.mark.parametrize("width", [1, 2, 5, 24, 25])
def test_row_medians_are_numpy_s_nanmedian(width: int) -> None:
    rng = np.random.default_rng(width)
    a = rng.normal(50, 10, (400, width)).round(1)  # rounded: ties between the middle values
    a[::7, 0] = np.nan  # rows with a NaN
    a[::50] = np.nan  # rows of NaN only
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # All-NaN slice encountered
        expected, got = np.nanmedian(a, axis=1), row_medians(a)
    assert np.array_equal(got, expected, equal_nan=True)
    windows = sliding_window_view(rng.normal(0, 1, 300), width)  # a view, as the rolling median passes
    assert np.array_equal(row_medians(windows), np.median(windows, axis=1))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 10, 11, 200, SHORT_MEDIAN + 1])
def test_a_stretch_s_median_is_numpy_s_nanmedian(n: int) -> None:
    rng = np.random.default_rng(n)
    for x in (
        rng.normal(50, 10, n).round(1),  # ties between the middle values
        np.where(rng.random(n) < 0.3, np.nan, rng.normal(0, 1e6, n)),
        np.full(n, np.nan),
        rng.integers(0, 5, n),  # a count
    ):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # All-NaN slice, Mean of empty slice
            expected = float(np.nanmedian(x)) if n else np.nan
        got = nan_median(x)
        assert got == expected or (np.isnan(got) and np.isnan(expected))


def test_the_scan_s_table_of_standard_errors_is_contrast_se() -> None:
    nz = shifts.Variogram(np.random.default_rng(4).normal(0, 1, 3000))
    table = nz.sides(12, 40)
    assert np.array_equal(table, nz.contrast_se(12, np.maximum(np.arange(41), 1)))
    assert nz.sides(12, 40) is table  # remembered
    assert table[7] == nz.contrast_se(12, np.array([7.0]))[0]


def test_the_scan_reads_its_sums_as_slices_with_the_ends_clipped() -> None:
    rng = np.random.default_rng(5)
    for _ in range(2000):
        n = int(rng.integers(1, 40))
        c = rng.integers(0, 100, n)  # a cumulative count: integers, kept as such
        first, m, stride = int(rng.integers(-60, 60)), int(rng.integers(0, 30)), int(rng.integers(1, 7))
        expected = c[np.clip(first + stride * np.arange(m), 0, n - 1)]
        got = shifts._strided(c, first, m, stride)
        assert np.array_equal(got, expected) and got.dtype == expected.dtype


@pytest.mark.parametrize("n", [1, 2, 5, 5000, 5001])
def test_a_variogram_s_medians_are_numpy_s(n: int) -> None:
    d = np.random.default_rng(n).normal(0, 1, n).round(2)  # ties between the middle values
    assert shifts.middle(d) == np.median(d)
    assert np.array_equal(shifts.middle(d.reshape(1, -1)), np.median(d.reshape(1, -1), axis=1))


def test_the_steady_span_comes_with_the_drops() -> None:
    t, v = steady(3000)
    v[:200] = np.linspace(100, 1000, 200)  # a warm-up
    v[1000:1020] *= 0.3
    found = detection(t, v)
    assert found.drops == detect(t, v) and len(found.drops) == 1
    assert found.span == steady_span(t, v) and found.span[0] > t[0]


def test_segmented_series_get_the_whole_series_span() -> None:
    t = np.arange(1, 601, dtype=float)
    threads = np.repeat([1, 2, 4, 8, 16, 32], 100).astype(float)
    v = threads * 100 + np.random.default_rng(1).normal(0, 5, 600)
    segments = [s.core for s in find_steps(t, threads) if s.core]
    found = detection(t, v, segments=segments)
    assert found.span == steady_span(t, v)
    assert found.drops == detect(t, v, segments=segments)


def test_an_unsorted_series_is_sorted_first() -> None:
    t, v = steady(800)
    v[400:410] = 0.0
    order = np.random.default_rng(2).permutation(len(t))
    assert detection(t[order], v[order]) == detection(t, v)
    assert [(d.start, d.end) for d in detect(t[order], v[order])] == [(400.0, 410.0)]
