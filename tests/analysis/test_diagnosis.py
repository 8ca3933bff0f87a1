"""Diagnosis on synthetic series: the steady-state baseline (long drops, drops to the end, ramp-down,
bursty series), recurring dips as one finding, latency rises, rates on the intervals they cover,
relevance and what is never evidence, and the throughput's stability."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benchlens.app.analysis.drops import detect
from benchlens.app.analysis.explain import Reference, explain, window_level
from benchlens.app.analysis.patterns import recurring
from benchlens.app.analysis.relevance import class_of, is_evidence, is_idle_wait
from benchlens.app.analysis.rises import rises
from benchlens.app.analysis.stability import stability
from benchlens.app.model import SeriesRef
from tests.analysis.conftest import steady


def test_a_drop_as_long_as_half_the_run_is_found_whole() -> None:
    t, v = steady(130, seed=2)
    v[40:105] = 300  # 65 s of a 130 s run
    (d,) = detect(t, v)
    assert (d.start, d.end) == (40.0, 105.0)
    assert d.depth == pytest.approx(0.7, abs=0.05)


def test_a_drop_lasting_to_the_end_is_found_but_a_ramp_down_is_not() -> None:
    t, v = steady(130, seed=3)
    v[90:] = 200  # from 90 s to the end of the benchmark
    (d,) = detect(t, v)
    assert (d.start, d.end) == (90.0, 130.0)
    t, v = steady(130, seed=3)
    v[-3:] = 400  # the benchmark's own last seconds
    assert detect(t, v) == []


def test_a_complete_stall_of_a_bursty_series_is_one_drop_with_its_edges() -> None:
    rng = np.random.default_rng(4)
    t = np.arange(1, 131, dtype=float)
    v = rng.poisson(8.0, 130).astype(float) * 15  # bursty per-second commits, noise ~35% of the level
    v[30:97] = 0.0  # a 67-second stall at 0 commits/s
    found = detect(t, v)
    assert len(found) == 1
    (d,) = found
    assert abs(d.start - 30.0) <= 5 and abs(d.end - 97.0) <= 5
    assert d.depth == 1.0


def test_depth_is_never_negative() -> None:
    t, v = steady(300, seed=5)
    v[100:112] = 350
    v[105] = 5000  # one huge sample inside the drop
    assert all(d.depth >= 0 for d in detect(t, v))


def test_recurring_dips_are_one_finding_that_keeps_each_dip() -> None:
    t, v = steady(1000, seed=6)
    starts = list(range(50, 950, 25))  # 36 dips, every 25 s
    for k, s in enumerate(starts):
        v[s : s + 6 + k % 5] *= 0.55  # 6-10 s at -45%
    v[970:990] = 100  # one drop off the rhythm
    found = detect(t, v)
    groups, rest = recurring(found)
    (g,) = groups
    assert g.count == 36 and g.period_s == pytest.approx(25.0, abs=1)
    assert [m.start for m in g.members] == [float(s) for s in starts]
    assert g.label().startswith("periodic stalls: 36 dips of \u2212") and g.label().endswith("every ~25 s")
    assert [(d.start, d.end) for d in rest] == [(970.0, 990.0)]


def test_a_latency_rise_while_throughput_holds_is_marked() -> None:
    t, lat = steady(300, level=10.0, noise=0.5, seed=7)
    lat[100:120] = 25.0  # a workload spike: latency x2.5
    (r,) = rises(t, lat)
    assert r.kind == "latency" and (r.start, r.end) == (100.0, 120.0)
    assert r.depth == pytest.approx(1.5, abs=0.1) and r.label().startswith("latency \u00d72.5")
    assert rises(*steady(300, level=10.0, noise=0.5, seed=7)) == []


def test_a_latency_rise_lasting_to_the_end_is_found_and_a_slow_drift_is_not() -> None:
    """A bursty p95 (+-40 % from one second to the next, a few huge samples) at x2.4 for its last
    38 s, over 20 draws: every time a rise covers most of the tail (the rolling baseline would
    follow it), nearly always as one rise with both edges; a slow drift of x1.8 is never a rise."""
    t = np.arange(1, 151, dtype=float)
    whole = 0
    for seed in range(20):
        rng = np.random.default_rng(seed)
        lat = 45.0 * rng.lognormal(0.0, 0.4, 150)
        lat[112:] *= 2.4  # a disk burst from 112 s to the end
        lat[[40, 41, 75]] = 40000.0
        late = [r for r in rises(t, lat) if r.end > 112]
        assert sum(min(r.end, 150) - max(r.start, 112) for r in late) >= 0.7 * 38, (seed, late)  # 0.76 at worst
        assert all(r.depth >= 0.7 for r in late)  # x2.4 drawn: x1.8 at worst (the medians of a draw)
        whole += len(late) == 1 and abs(late[0].start - 112) <= 3 and late[0].end >= 148
        drift = 45.0 * np.linspace(1.0, 1.8, 150) * rng.lognormal(0.0, 0.1, 150)  # tables grow
        assert rises(t, drift) == []
    assert whole >= 15  # 17 of 20 here; none before the end-of-run level was left out of the baseline


def test_a_latency_rise_over_most_of_the_run_to_its_end_starts_where_it_starts() -> None:
    """A rate-limited run whose p95 goes from ~2.5 ms to ~12 ms (and 150-570 ms in its first 10 s)
    at 41 s of 90 s, as two disk writers start (bench/drop_quality disk-writers-end-rated): more
    than half the run, where the change point is not searched; found from 41 s, not 46 s."""
    rng = np.random.default_rng(12)
    t = np.arange(1, 91, dtype=float)
    lat = 2.5 * rng.lognormal(0.0, 0.15, 90)
    lat[40:] = 12.0 * rng.lognormal(0.0, 0.2, 50)
    lat[[40, 41, 44, 46, 47, 48, 49]] = [167.0, 570.0, 156.0, 435.0, 344.0, 493.0, 314.0]
    lat[[15, 17]] = [28.0, 47.0]  # two slow seconds before
    late = [r for r in rises(t, lat) if r.end > 60]
    assert len(late) == 1 and late[0].start == 40.0 and late[0].end == 90.0, late
    assert late[0].depth >= 2.0  # x3 and more


def test_a_rate_belongs_to_the_interval_before_its_stamp() -> None:
    # snapshots every 2 s; the one stamped 0.2 s after the drop holds the 2 s before it
    t = np.arange(0.2, 100.0, 2.0)
    v = np.where((t > 30.0) & (t <= 40.2), 3000.0, 0.0)  # the waits of 30..40 s, as stamped
    assert window_level(t, v, 30.0, 40.0) == pytest.approx(3000.0 * 10 / 10.0, rel=0.02)
    assert window_level(t, v, 40.3, 50.0) == 0.0


def test_relevance_ranks_cpu_points_above_a_nanosecond_mutex_and_ignores_high_water_marks() -> None:
    t, v = steady(300, seed=8)
    v[150:165] = 300
    (d,) = detect(t, v)
    rng = np.random.default_rng(9)
    mutex_avg = 0.010 + rng.normal(0, 0.001, 300)
    mutex_avg[150:165] = 0.100  # a mutex's average wait, in µs: very surprising, irrelevant
    sys_cpu = 10 + rng.normal(0, 2, 300)
    sys_cpu[150:165] = 42  # a CPU hog in the kernel
    high_water = np.where(t < 155, 2.0, 9.0)  # Innodb_row_lock_time_max stepped and stayed
    data = {
        SeriesRef("perfschema", "AVG_TIMER_WAIT", "wait/synch/mutex/innodb/ibuf_mutex"): (t, mutex_avg),
        SeriesRef("mpstat", "%sys", "all"): (t, sys_cpu),
        SeriesRef("global_status", "Innodb_row_lock_time_max"): (t, high_water),
    }
    ranked = explain(d, data, data.get)
    assert ranked[0].ref == SeriesRef("mpstat", "%sys", "all") and ranked[0].klass == "cpu"
    assert SeriesRef("global_status", "Innodb_row_lock_time_max") not in [c.ref for c in ranked]


def test_the_reference_leaves_out_every_drop() -> None:
    t, v = steady(300, seed=10)
    v[100:115] = 300
    v[200:215] = 300
    d1, d2 = detect(t, v)
    waits = np.where(((t > 100) & (t <= 115)) | ((t > 200) & (t <= 215)), 500.0, 1.0)
    ref = Reference(0.0, 300.0, ((d1.start, d1.end), (d2.start, d2.end)))
    (c,) = explain(d2, [SeriesRef("vmstat", "b")], {SeriesRef("vmstat", "b"): (t, waits)}.get, reference=ref)
    assert c.before == 1.0 and c.during == 500.0  # the first drop is not the steady state


def test_idle_waits_and_classes() -> None:
    assert is_idle_wait("idle") and is_idle_wait("wait/synch/cond/sql/COND_timer")
    assert is_idle_wait("wait/synch/cond/aria/SERVICE_THREAD_CONTROL::COND_control")
    assert not is_idle_wait("wait/synch/cond/sql/MDL_context::COND_wait_status")
    assert not is_evidence(SeriesRef("global_status", "Max_used_connections"))
    assert not is_evidence(SeriesRef("perfschema", "SUM_TIMER_WAIT", "idle"))
    assert (
        class_of(SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/synch/cond/sql/MDL_context::COND_wait_status"))
        == "locks"
    )
    assert class_of(SeriesRef("global_status", "Com_flush")) == "locks"
    assert class_of(SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/synch/mutex/innodb/ibuf_mutex")) == "latches"
    assert class_of(SeriesRef("innodb_status", "checkpoint_age")) == "redo"
    assert class_of(SeriesRef("innodb_status", "history_list_length")) == "purge"
    assert class_of(SeriesRef("global_status", "Innodb_buffer_pool_pages_dirty")) == "flushing"
    assert class_of(SeriesRef("global_status", "Innodb_buffer_pool_reads")) == "buffer_pool"
    assert class_of(SeriesRef("iostat", "%util", "vda")) == "disk"
    assert class_of(SeriesRef("vmstat", "sy")) == "cpu" and class_of(SeriesRef("vmstat", "wa")) == "disk"
    assert class_of(SeriesRef("global_status", "Threads_running")) == "workload"


def test_stability_figures() -> None:
    t = np.arange(1, 101, dtype=float)
    v = np.full(100, 100.0)
    v[:10] = 10.0  # 10% of the reports under half the median
    s = stability(t, v)
    assert s.n == 100 and s.median == 100.0 and s.under_half == pytest.approx(0.1)
    assert s.p5 == 10.0 and s.cv == pytest.approx(np.std(v) / np.mean(v))
    assert stability(t, v, 20.0, 100.0).under_half == 0.0
    assert s.bar == s.median and s.under_text() == "10.0% of reports under half the median 100 (1 stall of 10 s)"


def test_a_run_stalled_at_zero_most_of_the_time_is_measured_against_its_working_reports() -> None:
    """Held-out rebuild-long-hot: a metadata lock held the hot workload at 0 commits/s for two thirds
    of the run, whose median is then 0 and read "0.0 % of reports under half the median 0"."""
    t = np.arange(1, 181, dtype=float)
    v = np.full(180, 1400.0)
    v[40:60] = 880.0
    v[60:180] = 0.0
    s = stability(t, v)
    assert s.median == 0.0 and s.bar == 1400.0
    assert s.under_half == pytest.approx(120 / 180) and s.stalls == 1
    assert s.under_text() == "66.7% of reports under half 1400, the median of the reports above 0 (1 stall of 120 s)"


def test_a_long_runs_stall_pattern_is_one_finding_with_its_rhythm() -> None:
    """Issue #23: a 4-hour log at 1 s that stalls under half its median in a fifth of its reports,
    every ~60 s for 8-15 s, is the run's own behaviour (no drop stands out of noise that holds
    them all): the finding is the stability line, which says how many stalls, how long and how
    often. Poisson-like counts (a third of the seconds at 0, at random) have stalls but no rhythm."""
    rng = np.random.default_rng(3)
    n = 15_000
    t = np.arange(1.0, n + 1)
    v = np.maximum(0.0, 1000 * (1 + 0.25 * rng.standard_normal(n)))
    k, injected = 30, 0
    while k < n - 20:
        v[k : k + int(rng.integers(8, 16))] *= rng.uniform(0.05, 0.4)
        k, injected = k + int(rng.normal(60, 12)), injected + 1
    s = stability(t, v)
    assert 0.15 < s.under_half < 0.25 and abs(s.stalls - injected) <= 0.1 * injected
    assert 50 <= s.every_s <= 70 and s.stalls_text().endswith(f"every ~{s.every_s:.0f} s")
    assert s.as_json()["stall_s"] == list(s.stall_s)
    assert len(detect(t, v)) <= 10  # a handful of findings at most, never hundreds
    counts = rng.poisson(1.0, n).astype(float)
    noise = stability(t, counts)
    assert noise.stalls > 100 and math.isnan(noise.every_s) and "every" not in noise.stalls_text()
