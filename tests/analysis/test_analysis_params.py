"""The analysis' tuning numbers are parameters: the defaults give the documented behaviour and
each record, varied, changes the result."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.decimate import MinMaxPyramid, PyramidParams
from benchlens.app.analysis.drops import DETECT, SENSITIVITY, DetectParams, Sensitivity, detect
from benchlens.app.analysis.explain import ExplainParams, effect, explain
from benchlens.app.analysis.onset import OnsetParams, load_onset
from benchlens.app.model import SeriesRef
from tests.analysis.conftest import steady


def test_a_sensitivity_is_a_preset_name_or_a_record() -> None:
    t, v = steady()
    v[200:210] = 500
    assert detect(t, v, Sensitivity(0.30, 3.0, 2.0)) == detect(t, v, "normal") != []
    assert detect(t, v, SENSITIVITY["low"]) == detect(t, v, "low")
    assert detect(t, v, Sensitivity(0.30, 20.0, 2.0)) == []  # 10 s is shorter than 20


def test_merge_s_decides_whether_a_sample_back_up_splits_a_drop() -> None:
    t, v = steady()
    v[100:105] = 300
    v[106:110] = 300
    assert [(d.start, d.end) for d in detect(t, v)] == [(100.0, 110.0)]
    split = detect(t, v, params=DetectParams(merge_s=0.0))
    assert [(d.start, d.end) for d in split] == [(100.0, 105.0), (106.0, 110.0)]


def test_a_drop_longer_than_half_the_baseline_window_needs_a_longer_window() -> None:
    t, v = steady(seed=1)
    v[300:380] = 400  # 80 s: more than half of the default 120 s window
    assert DETECT.baseline_s == 120.0 and detect(t, v) == []
    (d,) = detect(t, v, params=DetectParams(baseline_s=600.0))
    assert (d.start, d.end) == (300.0, 380.0)


def test_min_samples_leaves_short_segments_unsearched() -> None:
    t, v = steady(40)
    v[20:26] = 200
    assert len(detect(t, v)) == 1
    assert detect(t, v, params=DetectParams(min_samples=50)) == []


def test_the_explanation_floors_are_parameters() -> None:
    t, v = steady(300)
    v[150:165] = 200
    (d,) = detect(t, v)
    discards = np.zeros(300)
    discards[150:165] = 5.0  # flat at 0 before the drop, 5 during
    discards[20:25] = 100.0  # a burst earlier in the run sets its range
    c = effect(t, discards, d)
    assert c is not None and c.change == 0.5  # 5 over 10% of the run's range
    c = effect(t, discards, d, ExplainParams(range_floor=0.0))
    assert c is not None and c.change == 5 / 1e-6  # only the last floor is left
    load = {SeriesRef("vmstat", "r"): (t, 4.0 + (np.arange(300) >= 150) * 2.0)}.get
    assert explain(d, [SeriesRef("vmstat", "r")], load, params=ExplainParams(min_before=1000)) == []


def test_the_before_window_is_a_parameter() -> None:
    t, v = steady(300)
    v[150:165] = 200
    (d,) = detect(t, v)
    level = np.where(t < 100, 10.0, 50.0)  # changed 50 s before the drop
    default = effect(t, level, d)
    long = effect(t, level, d, ExplainParams(before_s=140.0))
    assert default is not None and long is not None
    assert default.before == 50.0 and long.before == 10.0


def test_onset_sustain_decides_whether_a_blip_is_the_start() -> None:
    t = np.arange(12, dtype=float)
    busy = np.array([1, 1, 1, 60, 1, 1, 95, 97, 96, 98, 97, 96], dtype=float)
    onset = load_onset(t, busy)
    assert onset is not None and 5.0 <= onset <= 6.0
    blip = load_onset(t, busy, OnsetParams(sustain=1))
    assert blip is not None and 2.0 <= blip <= 3.0
    assert load_onset(t, busy, OnsetParams(min_rise=99.0)) is None


def test_the_pyramid_factor_sets_its_levels() -> None:
    x = np.arange(100_000, dtype=float)
    y = np.sin(x / 100.0)
    assert len(MinMaxPyramid(x, y).levels) == 5  # 4, 16 ... 1024 samples a bin, each level >= 64 bins
    assert len(MinMaxPyramid(x, y, PyramidParams(factor=2)).levels) == 10
    xs, _ = MinMaxPyramid(x, y, PyramidParams(points_per_pixel=8)).view(0, 100_000, 100)
    assert 400 <= len(xs) <= 800
