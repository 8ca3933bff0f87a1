"""Where a benchmark started, seen from the system monitors: CPU busy rising from idle."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class OnsetParams:
    # samples: a shorter series shows no start; chosen by hand, not measured
    min_samples: int = 4
    # samples at the start whose lowest busy is the idle level; chosen by hand, not measured
    idle_samples: int = 3
    # percentile of busy taken as the working level; chosen by hand, not measured
    level_percentile: float = 75.0
    # percentage points of CPU busy from idle to working level: less is not a clear start; chosen
    # by hand, not measured
    min_rise: float = 10.0
    # a sample is busy above idle + this fraction of the rise; chosen by hand, not measured
    busy_fraction: float = 0.1
    # samples the load must last to count as its start: a monitor-side CPU blip in the first sample
    # hid the real onset of the disk-stall demo run; with 3 its sysbench log is placed 7 ms from
    # the recorded start (commit 88b8213)
    sustain: int = 3


ONSET = OnsetParams()


def load_onset(t: np.ndarray, busy: np.ndarray, params: OnsetParams = ONSET) -> float | None:
    """Epoch when the load started, or None when the series shows no idle-then-busy start.

    A monitor's sample at t covers the interval (t - step, t]; if the first sample above idle is
    busy for a fraction f of the rise to the working level, the load started f x step before t.
    """
    ok = np.isfinite(t) & np.isfinite(busy)
    t, busy = t[ok], busy[ok]
    if len(t) < params.min_samples:
        return None
    base = float(np.min(busy[: params.idle_samples]))
    level = float(np.percentile(busy, params.level_percentile))
    rise = level - base
    if rise < params.min_rise:
        return None
    busy_now = busy > base + params.busy_fraction * rise
    # the first idle -> busy step that stays busy (a blip while the monitors start is not the load)
    n = params.sustain
    sustained = [k for k in range(1, len(busy)) if not busy_now[k - 1] and busy_now[k : k + n].all()]
    if not sustained:
        return None  # busy from the first sample: the start is not in the capture
    k = sustained[0]
    step = float(t[k] - t[k - 1])
    fraction = min(1.0, float(busy[k] - base) / rise)
    return float(t[k] - fraction * step)
