"""bench/detection_calibration.py runs (a bench nobody runs rots): one draw of the short null
series and of the power grid, and the truth it draws is what it says."""

from __future__ import annotations

import sys

import numpy as np

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import detection_calibration as cal


def test_the_null_series_have_the_noise_they_name() -> None:
    x = cal.ar1(np.random.default_rng(2), 50_000, 0.5)
    assert abs(np.std(x) - 1) < 0.03 and abs(np.corrcoef(x[:-1], x[1:])[0, 1] - 0.5) < 0.03
    v = cal.noisy(np.random.default_rng(2), 50_000, 0.0, 0.1)
    assert abs(np.std(v) / np.mean(v) - 0.1) < 0.005


def test_one_draw_of_every_table() -> None:
    rows = cal.null_table(1, 1, (60,))
    assert len(rows) == len(cal.PHIS) * len(cal.CVS) + len(cal.COUNTS)
    assert all(r.seconds >= 20_000 and r.per_10k(r.drops) >= 0 for r in rows)
    power = cal.power_table(1, 1)
    assert set(power) == {f"cv={cv}" for cv in cal.POWER_CVS}
    assert power["cv=0.05"]["drop -90% 60s"] == 1.0  # a stall of a minute in quiet noise is found
