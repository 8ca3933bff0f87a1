"""The analysis' tuning numbers are parameters: the defaults give the documented behaviour and
each record, varied, changes the result."""

from __future__ import annotations

import math

import numpy as np

from benchlens.app.analysis import relevance
from benchlens.app.analysis.decimate import MinMaxPyramid, PyramidParams
from benchlens.app.analysis.drops import DETECT, SENSITIVITY, DetectParams, Sensitivity, detect
from benchlens.app.analysis.explain import ExplainParams, Reference, explain, measure
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
    split = detect(t, v, params=DetectParams(merge_s=0.0, merge_fraction=0.0))
    assert [(d.start, d.end) for d in split] == [(100.0, 105.0), (106.0, 110.0)]


def test_merge_fraction_decides_whether_fragments_of_a_long_stall_are_one_drop() -> None:
    t, v = steady()
    v[100:130] = 300
    v[130:136] = 1000  # 6 s back up inside a 60 s stall
    v[136:160] = 300
    assert [(d.start, d.end) for d in detect(t, v)] == [(100.0, 160.0)]
    split = detect(t, v, params=DetectParams(merge_fraction=0.1))
    assert [(d.start, d.end) for d in split] == [(100.0, 130.0), (136.0, 160.0)]


def test_a_long_drop_is_found_whatever_the_baseline_window() -> None:
    t, v = steady(seed=1)
    v[300:380] = 400  # 80 s: more than half of the 120 s rolling window, which used to absorb it
    assert DETECT.baseline_s == 120.0
    (d,) = detect(t, v)
    assert (d.start, d.end) == (300.0, 380.0)
    (d,) = detect(t, v, params=DetectParams(baseline_s=600.0))
    assert (d.start, d.end) == (300.0, 380.0)


def test_bursty_noise_decides_whether_a_series_is_judged_on_its_moving_average() -> None:
    # a series long enough to be tested on its own noise (a short one's strongest stretch, which
    # level_test finds whatever the thresholds did, is the stall either way)
    t = np.arange(1, 701, dtype=float)
    v = np.tile([30.0, 170.0], 350)  # per-second commits of a TPC-C run swing this much
    v[350:360] = 0.0  # a complete stall
    (d,) = detect(t, v)
    assert abs(d.start - 350.0) <= 2 and abs(d.end - 360.0) <= 2 and d.depth > 0.9
    # judged sample by sample every low second is a candidate, none of them told from the swing
    raw = detect(t, v, params=DetectParams(bursty_noise=10.0))
    assert [(d.start, d.end) for d in raw] != [(d.start, d.end)]


def test_settle_samples_is_how_long_a_high_start_takes_to_come_down() -> None:
    t = np.arange(1.0, 91.0)
    v = np.r_[[410.0] * 5, [265.0] * 4, [420.0] * 3, np.linspace(380, 260, 12), np.full(66, 255.0)]
    assert detect(t, v) == []  # the dip at 6-9 s is the warm-up coming down
    late = np.r_[np.full(10, 410.0), np.random.default_rng(17).normal(255.0, 12.0, 80)]
    late[40:46] = 120.0  # a drop once settled
    (d,) = detect(t, late)
    assert (d.start, d.end) == (40, 46)
    # a median of 81 samples over a 90-sample run calls the run settled only at its middle (41 s)
    assert detect(t, late, params=DetectParams(settle_samples=81)) != [d]


def test_min_samples_leaves_short_segments_unsearched() -> None:
    t, v = steady(40)
    v[20:26] = 200
    assert len(detect(t, v)) == 1
    assert detect(t, v, params=DetectParams(min_samples=50)) == []


def test_the_explanation_floors_are_parameters() -> None:
    t, v = steady(300)
    v[150:165] = 200
    (d,) = detect(t, v)
    ref = Reference(0.0, 300.0, ((d.start, d.end),), 1.0 - d.depth)
    discards = np.zeros(300)
    discards[150:165] = 5.0  # flat at 0 before the drop, 5 during
    m = measure(t, discards, d, ref)
    # no spread to count the shift in: an infinite effect (said in the units), certain: capped
    assert m is not None and m.raw == math.inf and m.surprise == 5.0
    m = measure(t, discards, d, ref, ExplainParams(effect_cap=1e9))
    assert m is not None and m.surprise == 5 / 1e-6  # the rank still counts it over the last floor
    level = 100.0 + (np.arange(300) >= 150) * 20.0
    m = measure(t, level, d, ref, ExplainParams(level_floor=0.5))
    assert m is not None and m.raw == 20 / 50.0  # the spread is at least half the level
    m = measure(t, level, d, ref, ExplainParams(level_floor=0.0))
    assert m is not None and m.raw == math.inf  # flat before: only the last floor is left, no spread
    load = {SeriesRef("vmstat", "r"): (t, 4.0 + (np.arange(300) >= 150) * 2.0)}.get
    assert explain(d, [SeriesRef("vmstat", "r")], load, params=ExplainParams(min_before=1000)) == []


def test_a_series_at_zero_most_of_the_time_is_not_flat() -> None:
    """Pages flushed in a burst every fourth sample, before and during a drop alike: the reference's
    median and median deviation are both 0, which called it flat and the window's mean a change
    "from a flat level" (DBPA's dool pages flushed, 0 -> 87.5 /s). Its mean against the reference's
    mean, in the reference's spread: no change. A series at 0 throughout but the drop still is one."""
    t, v = steady(300)
    v[150:165] = 200
    (d,) = detect(t, v)
    ref = Reference(0.0, 300.0, ((d.start, d.end),), 1.0 - d.depth)
    flushed = np.where(np.arange(300) % 4 == 3, 300.0, 0.0)
    m = measure(t, flushed, d, ref)
    assert m is not None and math.isfinite(m.raw) and abs(m.raw) < 2 and 70 < m.before < 80  # its mean, ~75
    bursts = flushed.copy()
    bursts[150:165] = 300.0  # flushing the whole window: a change, counted in the bursts' spread
    m = measure(t, bursts, d, ref)
    assert m is not None and math.isfinite(m.raw) and m.raw > 5


def test_the_reference_is_a_span_outside_the_drops() -> None:
    t, v = steady(300)
    v[150:165] = 200
    (d,) = detect(t, v)
    level = np.where(t < 100, 10.0, 50.0)  # changed 50 s before the drop
    steady_state = measure(t, level, d, Reference(0.0, 300.0, ((d.start, d.end),)))
    before = measure(t, level, d, Reference(0.0, 100.0))
    assert steady_state is not None and before is not None
    assert steady_state.before == 50.0 and before.before == 10.0


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


def test_a_change_from_nothing_counts_in_its_own_units() -> None:
    """A series at 0 everywhere outside the window has no level elsewhere to weigh its change by:
    any change was as strong as its whole level, and a socket count at 0.3 on average over a DBPA
    window (dool's tcp.clo) led its evidence at full strength. One unit of it is now full strength,
    less is less; a whole disk's or a lock's appearance still is."""
    sockets = relevance.importance(SeriesRef("dstat", "tcp.clo"), 0.3, 0.0, 0.0)
    locks = relevance.importance(SeriesRef("dstat", "mysql5_locks.Locks"), 1.7, 0.0, 0.0)
    assert sockets == (relevance.RELEVANCE.other * 0.3, 0.3)
    assert locks == (relevance.RELEVANCE.other, 1.0)  # as before: ties among certain changes go by strength


def test_a_devices_bytes_weigh_the_same_from_every_collector() -> None:
    """Held-out dool-flush-tables-long-smooth: a FLUSH TABLES loop read 42.6 kB/s from a disk that
    read nothing elsewhere. iostat's rkB/s of those reads weighed them against the 1 MB/s device
    floor (4 %); dool's dsk.read, in bytes, had no floor and led the window's evidence as the disk.
    The floor is one quantity's, in each collector's unit."""
    iostat = relevance.importance(SeriesRef("iostat", "rkB/s", "vda"), 42.6, 0.0, 0.0)
    dool = relevance.importance(SeriesRef("dstat", "dsk.read", "total"), 42.6 * 1024, 0.0, 0.0)
    blocks = relevance.importance(SeriesRef("sar", "bread/s"), 42.6 * 2, 0.0, 0.0)
    assert iostat[1] == dool[1] == blocks[1] == 42.6 / 1024
    requests = relevance.importance(SeriesRef("dstat", "io.read", "total"), 1.2, 0.0, 0.0)
    assert requests[1] == 1.2 / relevance.RELEVANCE.device_requests
