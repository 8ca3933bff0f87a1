"""When a drop's cause was there: the cause's own window, beside the drop's.

The drop's edges are where the throughput's level changes; the cause may last longer (two disk
writers running to the end of a run while the throughput came back to 80 % of its level after
25 s) or lead and trail it. For a cause proven by a series at a level of its own during the drop
(causes.Finding.key: a device's bytes, CPU points, lock wait time, the buffer pool's size, the
sessions connected), the window is the stretch around the drop where that series stood nearer its
drop level than its steady one, stretches close together merged as a drop's fragments are; for a
flushing stall, where the checkpoint age stayed at the sync flush point. A latency rise's cause
gets its window the same way.

A purge lag is the cause the throughput follows with a lag: a transaction keeps a read view
open, the history list grows from that moment, and the throughput falls only once the unpurged
versions pile up (on the churn workload of bench/drop_quality, ~10 s later); when the read view
closes the history list stops growing at once, and the throughput recovers only once purge has
caught up (~10 s again). Its window is the history list's growth: from the interval in which it
first rose clearly above its level before to the interval after its peak. The history list is
snapshotted every few seconds: each edge is the middle of its interval, good to half a snapshot
interval."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.causes import Finding
from benchlens.app.analysis.drops import DETECT, Drop, long_runs, merge_fragments, merged_stretches, sample_step
from benchlens.app.model import SeriesRef

HISTORY = (SeriesRef("global_status", "Innodb_history_list_length"), SeriesRef("innodb_status", "history_list_length"))


@dataclass(frozen=True)
class MechanismParams:
    # seconds before the drop searched for the growth's start: the drop's length, at least this
    lookback_s: float = 20.0
    # the growth starts at the last sample at most this share of the way from the lowest level
    # before the peak to the peak (a history list swinging +-300 around 800 on the churn workload
    # still crosses it only once it grows); chosen by hand on the corpus' first two purge lags
    start_share: float = 0.1
    # growth smaller than this is no purge lag (causes.PURGE_MIN's reason)
    min_growth: float = 2000.0
    # a series at its limit (causes.Finding.limit) this close to it (a share), for this many
    # samples in a row: a 16 MB log's checkpoint age touches its sync point for single 2 s
    # snapshots in a steady run (flushing-short-writes) and stays there while the cleaner is held
    pinned_tolerance: float = 1e-3
    pinned_samples: int = 2
    # the verdict names the window when an edge is this far from the drop's: seconds, and samples
    # of the series (an edge read from 2 s snapshots is good to an interval either way, so two
    # intervals apart may be the sampling alone: a flushing stall's age left the sync point for
    # one snapshot 4 s before the throttle ended); closer, it says no more than the drop's edges
    said_s: float = 3.0
    said_samples: float = 3.0
    # ... or when it leaves this share of the drop at one end to something else
    inside_share: float = 0.25


MECHANISM = MechanismParams()


@dataclass(frozen=True)
class CauseWindow:
    start: float  # epoch s
    end: float
    what: str  # "history list growing"
    step: float = 0.0  # the series' sample interval: each edge is good to about one

    def said(self, drop: Drop) -> str:
        """The window against the drop's edges: 'history list growing from 9 s before the drop's
        start to 10 s before its end'."""
        start = _against(self.start - drop.start, "the drop's start")
        return f"{self.what} from {start} to {_against(self.end - drop.end, 'its end')}"

    def as_json(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "what": self.what}


def _against(d: float, edge: str) -> str:
    return edge if abs(d) < 0.5 else f"{abs(d):.0f} s {'before' if d < 0 else 'after'} {edge}"


def history_growth(t: np.ndarray, h: np.ndarray, drop: Drop, params: MechanismParams = MECHANISM) -> CauseWindow | None:
    """When the history list grew, for a drop whose verdict is a purge lag: from the middle of the
    interval in which it rose clearly above its lowest level before its peak, to the middle of the
    interval after the peak (the read view closed in it: purge removes history again). None when
    it did not grow by min_growth."""
    t, h = np.asarray(t, np.float64), np.asarray(h, np.float64)
    ok = np.isfinite(t) & np.isfinite(h)
    t, h = t[ok], h[ok]
    lo = drop.start - max(drop.duration, params.lookback_s)
    near = np.flatnonzero((t >= lo) & (t <= drop.end))
    if len(near) < 3:
        return None
    p = int(near[np.argmax(h[near])])
    rising = near[near <= p]
    floor = float(np.min(h[rising]))
    if h[p] - floor < params.min_growth:
        return None
    low = rising[h[rising] <= floor + params.start_share * (h[p] - floor)]
    k = int(low[-1])
    if k >= p:
        return None
    after = float(t[p + 1]) if p + 1 < len(t) else float(t[p])
    mid = ((float(t[k]) + float(t[k + 1])) / 2.0, (float(t[p]) + after) / 2.0)
    return CauseWindow(*mid, "history list growing", sample_step(t))


def level_window(
    t: np.ndarray, x: np.ndarray, before: float, during: float, drop: Drop, what: str = "the cause lasted"
) -> CauseWindow | None:
    """The stretch around the drop where x stood nearer `during` than `before`."""
    t, x = _finite(t, x)
    if len(t) < 2 or during == before:
        return None
    return _window(t, (x - (before + during) / 2.0) * np.sign(during - before) > 0, drop, what)


def pinned_window(
    t: np.ndarray, x: np.ndarray, limit: float, drop: Drop, params: MechanismParams = MECHANISM
) -> CauseWindow | None:
    """The stretch around the drop where x stayed at `limit` (a checkpoint age at InnoDB's sync
    flush point), at it for params.pinned_samples snapshots in a row or more: a single snapshot
    there is the age touching the point, as it does in a steady run near it."""
    t, x = _finite(t, x)
    if len(t) < 2 or not limit > 0:
        return None
    held = long_runs(x >= (1.0 - params.pinned_tolerance) * limit, params.pinned_samples)
    return _window(t, held, drop, "the cause lasted")


def counted_window(t: np.ndarray, x: np.ndarray, drop: Drop) -> CauseWindow | None:
    """Where statements were issued (x: a Com_* counter's rate), from the first to the last of the
    samples that counted some, in two samples in a row or more: a counter counts a statement
    once, when it starts, so one sample tells that it began, not how long it ran (an ALTER TABLE
    counted once at the start of its two minutes); a loop's statements counted sample after sample
    (another client's mysqldump, its SHOW CREATE TABLE 2-7 every 2 s from 32 to 70 s of
    held-out dump-long-churn) tell when it ran."""
    t, x = _finite(t, x)
    if len(t) < 2:
        return None
    return _window(t, long_runs(x > 0, 2), drop, "the statements were issued")


def _finite(t: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    t, x = np.asarray(t, np.float64), np.asarray(x, np.float64)
    ok = np.isfinite(t) & np.isfinite(x)
    return t[ok], x[ok]


def _window(t: np.ndarray, on: np.ndarray, drop: Drop, what: str) -> CauseWindow | None:
    """Of the stretches of `on` (fragments merged as a drop's), the one overlapping the drop most.
    A sample covers the interval before its stamp (rates of snapshots), as a drop's do."""
    step = sample_step(t)
    best, most = None, 0.0
    for a, b in merge_fragments(t, merged_stretches(t, on, DETECT.merge_s + step), DETECT, step):
        overlap = min(float(t[b]), drop.end) - max(float(t[a]) - step, drop.start)
        if overlap > most:
            best, most = (float(t[a]) - step, float(t[b])), overlap
    return CauseWindow(best[0], best[1], what, step) if best is not None else None


def cause_window(
    found: Finding, drop: Drop, load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None]
) -> CauseWindow | None:
    """The window of a drop's proven cause: the history list's growth for a purge lag; for a key
    that counts the statements that caused it (Finding.event), where a Com_* counter counted them
    (counted_window: the server counts a statement there when it dispatches it; a join's count,
    Select_full_join, is its execution's, not its start's: no window); else the stretch where its
    key series stood at its drop level. None without a key series."""
    if found.key is None:  # a drop or a latency rise alike
        return None
    if found.event:
        series = load(found.key.ref) if found.key.ref.metric.startswith("Com_") else None
        return counted_window(series[0], series[1], drop) if series is not None else None
    if found.klass == "purge":
        for ref in HISTORY:
            series = load(ref)
            if series is not None:
                return history_growth(series[0], series[1], drop)
        return None
    series = load(found.key.ref)
    if series is None:
        return None
    if found.limit is not None:
        return pinned_window(series[0], series[1], found.limit, drop)
    return level_window(series[0], series[1], found.key.before, found.key.during, drop)


def came_after(found: Finding, drop: Drop, load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None]) -> bool:
    """Whether a cause whose cost is what it has accumulated came only after the drop began: a
    purge lag slows each statement by the length of the history list, so the list must be long
    before the throughput falls. It is when the list had grown, at the drop's start, by less than
    LATE_SHARE of its growth over the drop (its level during it against its steady one): then it
    is what the drop's cause left (another client's joins held a read view), not that cause."""
    if found.klass != "purge" or found.key is None:
        return False
    series = load(found.key.ref)
    if series is None:
        return False
    t, h = _finite(*series)
    grown = found.key.during - found.key.before
    if len(t) < 2 or not grown > 0:
        return False
    return float(np.interp(drop.start, t, h)) - found.key.before < LATE_SHARE * grown


# of its growth over a drop, the history list had reached at least this much at the drop's start
# in every purge lag of the corpus (0.75-1.1: read views held over the churn workload, the
# throughput falling 7-10 s after them), at most 0.11 where another client's joins held read views
# while they slowed the benchmark at once (join-long-smooth, join-short-bursty: 0.11, 0.02)
LATE_SHARE = 0.5


def worth_saying(window: CauseWindow, drop: Drop, params: MechanismParams = MECHANISM) -> bool:
    """Whether the window tells more than the drop's edges: it starts before the drop or ends
    after it by params.said_s or more (and params.said_samples of the series' samples), or it leaves
    params.inside_share of the drop or more at one end to something else (a flushing stall's
    40 s in a 69 s drop whose last 28 s were foreign CPU load). A little inside the drop says
    less: the key series is one symptom, and the throughput's edges are uncertain by a few samples
    (the demo's disk stall was found 4 s before its O_DIRECT writers started, 03:56:02 against
    03:56:06, until its edges were taken from the device's bytes: app/analysis/cause_edges.py)."""
    least = max(params.said_s, params.said_samples * window.step)
    beyond = max(drop.start - window.start, window.end - drop.end)
    inside = max(window.start - drop.start, drop.end - window.end)
    return beyond >= least or inside >= max(least, params.inside_share * drop.duration)
