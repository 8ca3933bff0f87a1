"""How steady a run's throughput is over its benchmark interval (warm-up excluded): the figures a
write-up quotes next to the mean, for one run and for B against A.

- cv: coefficient of variation (standard deviation / mean) of the per-report throughput;
- under_half: the share of reports below half the median (stalls, whatever their cause);
- p1, p5: the 1st and 5th percentiles (the floor a user sees in the worst 1% / 5% of seconds).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class Stability:
    n: int
    mean: float
    median: float
    cv: float
    under_half: float
    p1: float
    p5: float

    def as_json(self) -> dict[str, float | int | None]:
        return {k: (v if isinstance(v, int) or math.isfinite(v) else None) for k, v in asdict(self).items()}


def stability(t: np.ndarray, v: np.ndarray, lo: float = -math.inf, hi: float = math.inf) -> Stability:
    """Stability of the samples at lo <= t <= hi (NaN gaps left out)."""
    x = np.asarray(v, np.float64)[(np.asarray(t) >= lo) & (np.asarray(t) <= hi)]
    x = x[np.isfinite(x)]
    if not len(x):
        nan = math.nan
        return Stability(0, nan, nan, nan, nan, nan, nan)
    mean, median = float(np.mean(x)), float(np.median(x))
    cv = float(np.std(x)) / mean if mean > 0 else math.nan
    return Stability(
        len(x),
        mean,
        median,
        cv,
        float(np.mean(x < 0.5 * median)),
        float(np.percentile(x, 1)),
        float(np.percentile(x, 5)),
    )
