"""Where a benchmark started, seen from the system monitors: CPU busy rising from idle."""

from __future__ import annotations

import numpy as np

MIN_RISE = 10.0  # percentage points of CPU busy: less is not a clear start
SUSTAIN = 3  # samples the load must last to count as its start


def load_onset(t: np.ndarray, busy: np.ndarray) -> float | None:
    """Epoch when the load started, or None when the series shows no idle-then-busy start.

    A monitor's sample at t covers the interval (t - step, t]; if the first sample above idle is
    busy for a fraction f of the rise to the working level, the load started f x step before t.
    """
    ok = np.isfinite(t) & np.isfinite(busy)
    t, busy = t[ok], busy[ok]
    if len(t) < 4:
        return None
    base = float(np.min(busy[:3]))
    level = float(np.percentile(busy, 75))
    rise = level - base
    if rise < MIN_RISE:
        return None
    busy_now = busy > base + 0.1 * rise
    # the first idle -> busy step that stays busy (a blip while the monitors start is not the load)
    sustained = [k for k in range(1, len(busy)) if not busy_now[k - 1] and busy_now[k : k + SUSTAIN].all()]
    if not sustained:
        return None  # busy from the first sample: the start is not in the capture
    k = sustained[0]
    step = float(t[k] - t[k - 1])
    fraction = min(1.0, float(busy[k] - base) / rise)
    return float(t[k] - fraction * step)
