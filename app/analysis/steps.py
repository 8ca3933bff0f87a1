"""Load steps of a benchmark run (a step load: the benchmark re-run at 1, 2, 4 ... threads) and
their TPS and latency, numpy only.

One rule gives a run's steps (`find_steps`), for the per-step table and for drop detection's
segmentation alike. The benchmark's thread-count series (`thds`: sysbench's threads, dbstress's
users, tpcc's connections) is cut into stretches of one count; a stretch of at least `min_step`
reports is a step, a shorter one joins the step before it (the last report of a sysbench run can
count fewer threads, as they finish), or the step after it when it comes first. When the importer
recorded the runs of a concatenated log (sysbench: source meta `log_runs`, in the log's own
seconds), each run is a step instead. A step's thread count is the count most of its reports
print. Its figures are taken over its steady part: the first `warmup` of the step (the ramp after
the thread count changed) and reports counting fewer threads than the step are left out. Drop
detection takes a step as its core, its longest stretch of one count, so that the reports of a
change-over never enter a step's baseline.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StepParams:
    # fraction of each load step left out as its ramp-up; chosen by hand, not measured
    warmup: float = 0.2
    # reports: a shorter stretch of one thread count is not a step of its own. Above the single
    # report with fewer threads that ends a sysbench run (tests/fixtures/sysbench/MANIFEST.md:
    # `thds: 3` closing the 4-thread run); the value itself chosen by hand, not measured
    min_step: int = 3
    # seconds: a report at a log run's end belongs to that run although the epochs were computed
    # in floating point (rounding slack, not a tuning)
    run_end_slack_s: float = 1e-3


STEPS = StepParams()


@dataclass(frozen=True)
class LoadStep:
    first: int  # its reports are first .. stop - 1 of the thread-count series
    stop: int
    level: float  # the thread count most of its reports print (NaN if none is readable)
    # epochs of the first and last report of its core (longest stretch of one count, if at least
    # min_step reports): the step as drop detection segments it; None: too short to have one
    core: tuple[float, float] | None


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


def find_steps(
    t: np.ndarray,
    counts: np.ndarray,
    runs: list[tuple[float, float]] | None = None,
    params: StepParams = STEPS,
) -> list[LoadStep]:
    """The load steps of a run from its thread-count series (`counts` at times `t`). `runs`: the
    (start, end] epochs of the runs of a concatenated log when the importer recorded them (see
    log_runs), each a step; else the levels of the thread count, a stretch shorter than
    `min_step` reports joining a neighbour."""
    if len(t) == 0:
        return []
    if runs:
        bounds = _log_run_bounds(t, runs, params.run_end_slack_s)
    else:
        bounds = _join_short(_stretch_bounds(counts), params.min_step)
    return [
        LoadStep(a, b, _mode(counts[a:b]), _core(t, counts[a:b], a, params.min_step))
        for a, b in itertools.pairwise(bounds)
    ]


def _stretch_bounds(counts: np.ndarray) -> list[int]:
    """Where stretches of one count begin, and the end: NaN differs from everything, itself too."""
    cuts = np.flatnonzero(np.diff(counts) != 0) + 1
    return [0, *cuts.tolist(), len(counts)]


def _join_short(bounds: list[int], min_step: int) -> list[int]:
    """Step bounds from stretch bounds: a stretch shorter than min_step joins the step before it;
    a first step still shorter than min_step (short stretches only) joins the step after it."""
    out: list[list[int]] = []
    for a, b in itertools.pairwise(bounds):
        if out and b - a < min_step:
            out[-1][1] = b
        else:
            out.append([a, b])
    if len(out) > 1 and out[0][1] - out[0][0] < min_step:
        out[1][0] = out[0][0]
        del out[0]
    return [out[0][0], *(b for _, b in out)]


def _log_run_bounds(t: np.ndarray, runs: list[tuple[float, float]], slack_s: float) -> list[int]:
    """Step bounds from the runs of a log: a report belongs to the first run not ended before it."""
    ends = np.array([e for _, e in runs]) + slack_s
    which = np.minimum(np.searchsorted(ends, t, side="left"), len(ends) - 1)
    cuts = np.flatnonzero(np.diff(which) != 0) + 1
    return [0, *cuts.tolist(), len(t)]


def _core(t: np.ndarray, counts: np.ndarray, offset: int, min_step: int) -> tuple[float, float] | None:
    """Epochs of the first and last report of the longest stretch of one count in a step (the
    first of equals), if it is at least min_step reports long."""
    longest = max(itertools.pairwise(_stretch_bounds(counts)), key=lambda ab: ab[1] - ab[0])
    a, b = longest
    if b - a < min_step:
        return None
    return float(t[offset + a]), float(t[offset + b - 1])


def log_runs(spans: list[tuple[float, float]], t_last: float) -> list[tuple[float, float]] | None:
    """The importer's record of a concatenated log's runs (SourceMeta.log_runs: pairs of the log's
    own seconds, the last ending at the last report) as epochs, given the last report's epoch;
    None when the log holds one run only."""
    if len(spans) < 2:
        return None
    c = t_last - spans[-1][1]
    return [(a + c, b + c) for a, b in spans]


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
    params: StepParams = STEPS,
    levels: int = 2,
) -> list[Step] | None:
    """TPS and latency per step, over the steady reports between t0 and t1 (None unless the run
    has at least `levels` thread counts: with fewer it is no step load; levels=1 gives a
    fixed-concurrency run's one step, the point it is on a TPS-vs-concurrency chart)."""
    t, threads = thds
    steps = find_steps(t, threads, runs, params)
    if len({s.level for s in steps if math.isfinite(s.level)}) < levels:
        return None
    out = []
    for k, step in enumerate(steps):
        ts = _steady_times(t, threads, step, params.warmup)
        ts = ts[(ts >= t0) & (ts <= t1)]
        if len(ts):
            out.append(_step_figures(k + 1, step, t, ts, tps, lat))
    return out


def _steady_times(t: np.ndarray, threads: np.ndarray, step: LoadStep, warmup: float) -> np.ndarray:
    """Times of a step's steady reports: past its warm-up, counting the step's threads."""
    a, b = step.first, step.stop
    keep = threads[a:b] == step.level
    keep[: int(warmup * (b - a))] = False
    return t[a:b][keep]


def _step_figures(
    index: int,
    step: LoadStep,
    t: np.ndarray,
    ts: np.ndarray,
    tps: tuple[np.ndarray, np.ndarray],
    lat: tuple[np.ndarray, np.ndarray] | None,
) -> Step:
    v = tps[1][np.isin(tps[0], ts)]
    lv = lat[1][np.isin(lat[0], ts)] if lat is not None else np.zeros(0)
    v, lv = v[np.isfinite(v)], lv[np.isfinite(lv)]
    return Step(
        index,
        step.level,
        float(t[step.first]),
        float(t[step.stop - 1]),
        len(v),
        float(np.median(v)) if len(v) else math.nan,
        float(np.mean(v)) if len(v) else math.nan,
        float(np.median(lv)) if len(lv) else math.nan,
    )
