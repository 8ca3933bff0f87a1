"""When a drop's cause was there, for a cause the throughput follows with a lag.

A purge lag is the canonical one: a transaction keeps a read view open, the history list grows
from that moment, and the throughput falls only once the unpurged versions pile up (on the churn
workload of bench/drop_quality, ~10 s later); when the read view closes the history list stops
growing at once, and the throughput recovers only once purge has caught up (~10 s again). The
drop's edges are the throughput's; the cause's are the history list's: it was growing from the
interval in which it first rose clearly above its level before to the interval after its peak.
The history list is snapshotted every few seconds: each edge is the middle of its interval, good
to half a snapshot interval."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.drops import Drop
from benchlens.app.model import SeriesRef

HISTORY = (SeriesRef("global_status", "Innodb_history_list_length"), SeriesRef("innodb_status", "history_list_length"))


@dataclass(frozen=True)
class MechanismParams:
    # seconds before the drop searched for the growth's start: the drop's length, at least this
    lookback_s: float = 20.0
    # the growth starts at the last sample at most this share of the way from the lowest level
    # before the peak to the peak (a history list swinging +-300 around 800 on the churn workload
    # still crosses it only once it grows); chosen by hand on the corpus' two purge lags
    start_share: float = 0.1
    # growth smaller than this is no purge lag (causes.PURGE_MIN's reason)
    min_growth: float = 2000.0


MECHANISM = MechanismParams()


@dataclass(frozen=True)
class CauseWindow:
    start: float  # epoch s
    end: float
    what: str  # "history list growing"

    def said(self, drop: Drop) -> str:
        """The window against the drop's edges: 'history list growing from 10 s before the drop to
        10 s before its end'."""
        start = _against(self.start - drop.start, "the drop's start", "the drop")
        return f"{self.what} from {start} to {_against(self.end - drop.end, 'its end', 'its end')}"

    def as_json(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "what": self.what}


def _against(d: float, at: str, edge: str) -> str:
    return at if abs(d) < 0.5 else f"{abs(d):.0f} s {'before' if d < 0 else 'after'} {edge}"


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
    return CauseWindow((float(t[k]) + float(t[k + 1])) / 2.0, (float(t[p]) + after) / 2.0, "history list growing")


def cause_window(
    klass: str, drop: Drop, load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None]
) -> CauseWindow | None:
    """The window of a drop's cause, for the lagging causes (a purge lag), else None."""
    if klass != "purge" or drop.kind != "drop":
        return None
    for ref in HISTORY:
        series = load(ref)
        if series is not None:
            return history_growth(series[0], series[1], drop)
    return None
