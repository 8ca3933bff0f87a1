"""A lagging cause's own window (app/analysis/mechanism.py): a purge lag's history list growing, and
whether it grew before the drop (came_after)."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.causes import Finding
from benchlens.app.analysis.drops import Drop
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.mechanism import (
    came_after,
    cause_window,
    counted_window,
    history_growth,
    level_window,
    pinned_window,
    worth_saying,
)
from benchlens.app.model import SeriesRef


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
    assert w.said(drop) == ("history list growing from 9 s before the drop's start to 11 s before its end")


def test_no_window_without_growth() -> None:
    t = np.arange(0.0, 100.0, 2.0)
    h = 800.0 + np.random.default_rng(2).normal(0, 300, len(t))  # no read view: swings only
    assert history_growth(t, h, _drop(40.0, 80.0)) is None
    assert history_growth(t[:2], h[:2], _drop(40.0, 80.0)) is None  # too few snapshots


def test_a_cause_lasting_past_the_drop_gives_its_own_window() -> None:
    """A device written at ~150 MB/s from 40 s to the end of a 93 s run (two writers), ~7 MB/s
    before; the throughput fell 40-65 s only. Its window is the writers', and worth saying."""
    t = np.arange(1.0, 94.0)
    rng = np.random.default_rng(3)
    wkb = 7000.0 + rng.normal(0, 2000, len(t))
    wkb[t > 40] = 150_000.0 + rng.normal(0, 40_000, int((t > 40).sum()))
    wkb[[55, 70]] = 9000.0  # two seconds between dd passes: fragments of one stretch
    drop = _drop(40.0, 65.0)
    w = level_window(t, wkb, 7000.0, 147_000.0, drop)
    assert w is not None and (w.start, w.end) == (40.0, 93.0) and worth_saying(w, drop)
    assert w.said(drop) == "the cause lasted from the drop's start to 28 s after its end"
    same = level_window(t, wkb, 7000.0, 147_000.0, _drop(41.0, 92.0))
    assert same is not None and not worth_saying(same, _drop(41.0, 92.0))  # 1 s away: the drop's edges say it
    wide = _drop(36.0, 95.0)  # the drop began before the bytes reached the device: one symptom, not said
    inside = level_window(t, wkb, 7000.0, 147_000.0, wide)
    assert inside is not None and inside.start == 40.0 and not worth_saying(inside, wide)
    assert level_window(t, np.full(len(t), 7000.0), 7000.0, 147_000.0, drop) is None  # never at the drop level


def test_a_flushing_stall_is_where_the_checkpoint_age_stays_at_the_sync_point() -> None:
    """2 s snapshots of a 16 MB log's checkpoint age (sync point 12.87 MB), as flushing-long-writes
    recorded it: just under the point in the steady state, touching it for single snapshots;
    at it from 30 s to 68 s but for two snapshots (46, 56 s) while the cleaner was held back. The
    throughput fell 27-96 s (foreign load after the stall): the window leaves 28 s of the drop to
    something else, which is worth saying."""
    limit = 12_871_804.0
    t = np.arange(2.0, 100.0, 2.0)
    age = 11_500_000.0 + np.random.default_rng(4).normal(0, 300_000, len(t))
    age = np.minimum(age, limit - 50_000)
    age[(t >= 30) & (t <= 68)] = limit + 300.0
    age[np.isin(t, (46, 56))] = 12_450_000.0
    age[np.isin(t, (12, 24, 86, 92))] = limit + 100.0  # single touches
    drop = _drop(27.0, 96.0)
    w = pinned_window(t, age, limit, drop)
    assert w is not None and (w.start, w.end) == (28.0, 68.0) and worth_saying(w, drop)
    assert w.said(drop) == "the cause lasted from 1 s after the drop's start to 28 s before its end"
    touches = np.where((t >= 30) & (t <= 68) & ~np.isin(t, (40,)), 12_400_000.0, age)  # one snapshot at it
    assert pinned_window(t, touches, limit, drop) is None


def _purge(t: np.ndarray, h: np.ndarray, drop: Drop) -> tuple[Finding, dict[SeriesRef, tuple[np.ndarray, np.ndarray]]]:
    """A purge-lag finding keyed on the history list h, its levels measured as explain measures them
    (steady: before the drop; during: its mean over the drop), and the series to load."""
    ref = SeriesRef("global_status", "Innodb_history_list_length")
    inside = (t > drop.start) & (t <= drop.end)
    key = Change(ref, 1.0, float(np.median(h[t < drop.start - 5])), float(np.mean(h[inside])), klass="purge")
    return Finding("purge", "history list length kept growing: purge lag", key, gauge=True), {ref: (t, h)}


def test_a_history_list_long_before_the_drop_is_its_cause() -> None:
    """The recorded purge lags: a read view at 31 s, the list at 3,400-4,500 when the throughput
    fell 10 s later (0.75-1.1 of its growth over the drop)."""
    t = np.arange(0.0, 100.0, 2.0)
    h = np.where((t > 31) & (t < 80), 800.0 + np.minimum(t - 31, 10) * 300.0, 800.0)
    drop = _drop(41.0, 80.0)
    found, series = _purge(t, h, drop)
    assert not came_after(found, drop, series.get)


def test_a_history_list_that_grows_with_the_drop_is_not_its_cause() -> None:
    """Held-out join-long-smooth: another client's joins held read views while they slowed the
    benchmark at once; the list grew 524 -> 711 by the drop's start, 2,157 halfway: a symptom."""
    t = np.arange(0.0, 100.0, 2.0)
    h = np.where((t > 30) & (t < 72), 524.0 + np.maximum(t - 31, 0) * 80.0, 524.0)
    drop = _drop(30.0, 72.0)
    found, series = _purge(t, h, drop)
    assert came_after(found, drop, series.get)
    other = Finding("cpu", "CPU taken", found.key)  # only a purge lag is held to its history's timing
    assert not came_after(other, drop, series.get)


def test_statements_issued_sample_after_sample_give_their_window_one_sample_none() -> None:
    """A status loop every 2 s. Another client's dump loop: SHOW CREATE TABLE counted in every
    sample from 32 to 70 s (held-out dump-long-churn), the drop found 30-78 s: the statements'
    window is 30-70 s. An ALTER TABLE counted once, in one sample, says it began, not how long it
    ran: no window."""
    t = np.arange(2.0, 101.0, 2.0)
    x = np.where((t >= 32) & (t <= 70), 4.0, 0.0)
    x[t == 50] = 0.0  # a sample between two dumps: merged as a drop's fragments are
    w = counted_window(t, x, _drop(30.0, 78.0))
    assert w is not None and (w.start, w.end) == (30.0, 70.0) and w.what == "the statements were issued"
    once = np.where(t == 32, 0.5, 0.0)
    assert counted_window(t, once, _drop(30.0, 150.0)) is None
    key = Change(SeriesRef("global_status", "Com_show_create_table"), np.inf, 0.0, 3.9)
    found = Finding("workload", "a dump", key, event=True)
    got = cause_window(found, _drop(30.0, 78.0), lambda ref: (t, x))
    assert got is not None and (got.start, got.end) == (30.0, 70.0)
    # a join's count is its execution's, not when it was issued (held-out join-long-hot: joins
    # counted 46-50 s in a drop of 30-73 s): no window
    joins = Finding(
        "workload", "joins", Change(SeriesRef("global_status", "Select_full_join"), 9.0, 0.0, 0.3), event=True
    )
    assert cause_window(joins, _drop(30.0, 78.0), lambda ref: (t, x)) is None
