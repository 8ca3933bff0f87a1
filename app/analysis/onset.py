"""Where a benchmark started, seen from the system monitors: CPU busy rising from idle."""

from __future__ import annotations

import numpy as np

MIN_RISE = 10.0  # percentage points of CPU busy: less is not a clear start


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
    above = np.flatnonzero(busy > base + 0.1 * rise)
    if len(above) == 0 or above[0] == 0:
        return None  # busy from the first sample: the start is not in the capture
    k = int(above[0])
    step = float(t[k] - t[k - 1])
    fraction = min(1.0, float(busy[k] - base) / rise)
    return float(t[k] - fraction * step)
