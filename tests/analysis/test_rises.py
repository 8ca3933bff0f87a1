"""Latency rises on series no tool printed (app/analysis/rises.py)."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.rises import rises
from tests.conftest import FIXTURES


def test_a_rise_widened_onto_a_steady_level_of_zero_is_no_crash() -> None:
    """A series with zeros at its steady level (a count, a clipped noisy rate) once gave a rise
    whose widened stretch had a baseline median of 0: ZeroDivisionError (found by
    bench/detection_calibration.py). Such a stretch has no ratio to state: it is left out."""
    v = np.loadtxt(FIXTURES / "rises" / "zeros-at-the-steady-level.txt")
    found = rises(np.arange(len(v), dtype=float), v)
    assert all(d.baseline > 0 and np.isfinite(d.depth) for d in found)
