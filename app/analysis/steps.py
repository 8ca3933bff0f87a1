"""Load steps of a benchmark run (a step load: the benchmark re-run at 1, 2, 4 ... threads) and
their TPS and latency, numpy only.

Steps are the runs of a concatenated log as the importer recorded them (sysbench: source meta
`steps`, in the log's own seconds), else the levels of the thread-count series (`thds`), a
stretch shorter than MIN_STEP reports joining the step before it. A step's thread count is the
count most of its reports print. Its figures are taken over its steady part: the first
STEP_WARMUP of the step (the ramp after the thread count changed) and reports counting fewer
threads than the step (threads finishing at its end, as sysbench prints) are left out.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

STEP_WARMUP = 0.2  # fraction of each load step left out as ramp-up
MIN_STEP = 3  # reports: a shorter stretch of one thread count is not a step of its own


@dataclass(frozen=True)
class Step:
    index: int  # 1-based, in the run's order
    threads: float
    t0: float  # epoch of the step's first and last report
    t1: float
    n: int  # steady reports in the window
    tps_median: float
    tps_mean: float
    lat_median: float


def step_ranges(
    t: np.ndarray, threads: np.ndarray, log_runs: list[tuple[float, float]] | None
) -> list[tuple[int, int]]:
    """Index ranges [a, b) of the load steps. `log_runs`: the (start, end] epochs of the runs of a
    concatenated log; else levels of the thread count, a stretch shorter than MIN_STEP reports
    joining the step before it (the last report of a sysbench run can count fewer threads)."""
    n = len(t)
    if n == 0:
        return []
    if log_runs:
        ends = np.array([e for _, e in log_runs]) + 1e-3
        which = np.minimum(np.searchsorted(ends, t, side="left"), len(ends) - 1)
        cuts = np.flatnonzero(np.diff(which) != 0) + 1
    else:
        cuts = np.flatnonzero(np.diff(threads) != 0) + 1
    bounds = [0, *cuts.tolist(), n]
    out: list[list[int]] = []
    for a, b in itertools.pairwise(bounds):
        if out and (b - a < MIN_STEP) and not log_runs:
            out[-1][1] = b
        else:
            out.append([a, b])
    if not log_runs and len(out) > 1 and out[0][1] - out[0][0] < MIN_STEP:
        out[1][0] = out[0][0]  # a short first stretch belongs to the step after it
        del out[0]
    return [(a, b) for a, b in out]


def log_runs(meta_steps: object, t_last: float) -> list[tuple[float, float]] | None:
    """The importer's record of a concatenated log's runs (pairs of the log's own seconds, the
    last ending at the last report) as epochs, given the last report's epoch; None if unusable."""
    if not isinstance(meta_steps, list) or len(meta_steps) < 2:
        return None
    try:
        pairs = [(float(a), float(b)) for a, b in meta_steps]
    except (TypeError, ValueError):
        return None
    c = t_last - pairs[-1][1]
    return [(a + c, b + c) for a, b in pairs]


def _mode(values: np.ndarray) -> float:
    v = values[np.isfinite(values)]
    if not len(v):
        return math.nan
    levels, counts = np.unique(v, return_counts=True)
    return float(levels[counts == counts.max()].max())


def per_step(
    thds: tuple[np.ndarray, np.ndarray],
    tps: tuple[np.ndarray, np.ndarray],
    lat: tuple[np.ndarray, np.ndarray] | None,
    runs: list[tuple[float, float]] | None = None,
    t0: float = -math.inf,
    t1: float = math.inf,
) -> list[Step] | None:
    """TPS and latency per step, over the steady reports between t0 and t1 (None unless the run
    has at least two thread counts: then it is no step load)."""
    t, threads = thds
    ranges = step_ranges(t, threads, runs)
    levels = [_mode(threads[a:b]) for a, b in ranges]
    if len({x for x in levels if math.isfinite(x)}) < 2:
        return None
    steps = []
    for k, ((a, b), level) in enumerate(zip(ranges, levels, strict=True)):
        keep = threads[a:b] == level
        keep[: int(STEP_WARMUP * (b - a))] = False
        ts = t[a:b][keep]
        ts = ts[(ts >= t0) & (ts <= t1)]
        if not len(ts):
            continue
        v = tps[1][np.isin(tps[0], ts)]
        lv = lat[1][np.isin(lat[0], ts)] if lat is not None else np.zeros(0)
        v, lv = v[np.isfinite(v)], lv[np.isfinite(lv)]
        steps.append(
            Step(
                k + 1,
                level,
                float(t[a]),
                float(t[b - 1]),
                len(v),
                float(np.median(v)) if len(v) else math.nan,
                float(np.mean(v)) if len(v) else math.nan,
                float(np.median(lv)) if len(lv) else math.nan,
            )
        )
    return steps
