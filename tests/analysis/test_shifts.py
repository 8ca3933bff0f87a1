"""The significance test of drops on series long enough to measure their noise (issue #23 part 1,
app/analysis/shifts.py): standard errors exact for the noise's variogram, a dip significant when it
is and not when it is chance, and the regime drops.py applies it in."""

from __future__ import annotations

import numpy as np
import pytest

from benchlens.app.analysis import shifts
from benchlens.app.analysis.drops import SENSITIVITY, detect, scan_params
from benchlens.app.analysis.rises import rises


def ar1(n: int, phi: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    e = rng.standard_normal(n) * np.sqrt(1 - phi * phi)
    x = np.empty(n)
    x[0] = rng.standard_normal()
    for i in range(1, n):
        x[i] = phi * x[i - 1] + e[i]
    return x


@pytest.mark.parametrize(("length", "side"), [(12, 20), (3, 20), (100, 100), (12, 4)])
def test_contrast_standard_errors_match_simulated_ar1_noise(length: int, side: int) -> None:
    y = ar1(40_000, 0.8, seed=1)
    starts = np.arange(0, len(y) - length - side, 23)
    contrasts = [y[a : a + length].mean() - y[a + length : a + length + side].mean() for a in starts]
    se = shifts.Variogram(y).contrast_se(length, np.array([side]))[0]
    assert se == pytest.approx(np.std(contrasts), rel=0.08)


def test_white_noise_gives_the_textbook_standard_error() -> None:
    x = np.random.default_rng(2).standard_normal(20_000)
    se = shifts.Variogram(x).contrast_se(10, np.array([10, 20, 5]))
    assert se == pytest.approx(np.sqrt(1 / 10 + 1 / np.array([10, 20, 5])), rel=0.05)


def test_a_fitted_variogram_never_gives_a_negative_variance() -> None:
    """Raw lag estimates scatter by a few % from lag to lag: a contrast variance is a small
    difference of large sums of them, and came out negative before the model was fitted."""
    x = np.maximum(0.0, 1000 * (1 + np.random.default_rng(3).standard_normal(600)))
    assert (shifts.Variogram(x).contrast_se(43, np.arange(1, 60)) > 0).all()


def test_a_dip_is_significant_and_chance_is_not() -> None:
    rng = np.random.default_rng(4)
    v = 1000 * (1 + 0.05 * rng.standard_normal(1200))
    p = scan_params(SENSITIVITY["normal"], 1.0)
    assert shifts.significance(v, 500, 559, p) is None  # nothing there
    v[500:560] *= 0.75
    dip = shifts.significance(v, 500, 559, p)
    assert dip is not None and dip.level / dip.ref == pytest.approx(0.75, abs=0.02)


def test_students_t_widens_the_threshold_for_a_noise_measured_on_few_samples() -> None:
    assert shifts.t_quantile(3.0, 1e9) == pytest.approx(3.0)
    assert shifts.t_quantile(3.0, 10) > shifts.t_quantile(3.0, 50) > 3.0


def test_long_noise_gives_no_drop_and_a_quarter_off_for_a_minute_is_found() -> None:
    """The issue's two anchors on a series long enough to test: bursty noise (CV 0.3, AR(1) 0.5)
    gives no drop, and -25 % for 60 s in +-5 % noise is found with its edges."""
    rng = np.random.default_rng(5)
    n = 3600
    t = np.arange(n, dtype=float)
    e = ar1(n, 0.5, seed=6)
    assert detect(t, np.maximum(0.0, 1000 * (1 + 0.3 * e))) == []
    v = 1000 * (1 + 0.05 * rng.standard_normal(n))
    v[1800:1860] *= 0.75
    (d,) = detect(t, v)
    assert abs(d.start - 1799) <= 3 and abs(d.end - 1859) <= 3
    assert d.tested and d.as_json()["tested"] is True and d.untested() == ""


def test_long_latency_noise_gives_no_rise_and_a_real_one_is_found() -> None:
    rng = np.random.default_rng(8)
    n = 3600
    t = np.arange(n, dtype=float)
    lat = 5.0 * np.exp(0.4 * ar1(n, 0.5, seed=9))  # a bursty p95, x1.5 swings
    assert rises(t, lat) == []
    lat = 5.0 * np.exp(0.1 * rng.standard_normal(n))
    lat[1000:1060] *= 3.0
    (r,) = rises(t, lat)
    assert abs(r.start - 999) <= 3 and abs(r.end - 1059) <= 3 and r.tested
