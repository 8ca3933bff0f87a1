"""One run as one number per statistic, for the trend across runs: the median, mean, p95 and p99
of a series over its steady state (the benchmark interval when the run has one, its warm-up left
out as drops.steady_span finds it). A drop inside a run moves its mean and its low percentiles
but hardly its median: the median is trend's default statistic.

Which way is better: throughput (tps, qps, events or operations per second) is better higher;
latency and response times (lat_ms, *_ms, latency, response) better lower."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.drops import steady_span

STATS = ("median", "mean", "p95", "p99")
_LOWER_IS_BETTER = re.compile(r"(^|[_.\-])(lat|latency|response|resp|rt)([_.\-]|$)|_ms$|_us$|^ms$|wait", re.I)


@dataclass(frozen=True)
class RunStats:
    n: int  # samples in the steady state
    median: float
    mean: float
    p95: float
    p99: float

    def get(self, stat: str) -> float:
        return float(getattr(self, stat))


NO_STATS = RunStats(0, math.nan, math.nan, math.nan, math.nan)


def run_stats(t: np.ndarray, v: np.ndarray, bench: tuple[float | None, float | None] = (None, None)) -> RunStats:
    """The statistics of a series over its steady state (NaN gaps left out)."""
    t, v = np.asarray(t, np.float64), np.asarray(v, np.float64)
    keep = np.isfinite(v)
    if bench[0] is not None:
        keep &= t >= bench[0]
    if bench[1] is not None:
        keep &= t <= bench[1]
    t, v = t[keep], v[keep]
    if not len(v):
        return NO_STATS
    lo, hi = steady_span(t, v)
    if math.isfinite(lo):
        inside = (t >= lo) & (t <= hi)
        if inside.sum() >= 3:
            v = v[inside]
    return RunStats(
        len(v),
        float(np.median(v)),
        float(np.mean(v)),
        float(np.percentile(v, 95)),
        float(np.percentile(v, 99)),
    )


def higher_is_better(metric: str) -> bool:
    """Throughput is better higher; latency, response and wait times lower."""
    return not _LOWER_IS_BETTER.search(metric)
