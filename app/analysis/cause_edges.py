"""A drop's edges from its cause where the throughput cannot place them (issue #23: edges within a
few seconds of the disturbance).

In a noisy throughput the edges of a drop are uncertain by many seconds: the churn workload's
commits swing +-60 % by themselves, and the stretch its test finds strongest is one of many that
fit about as well (held-out load-data-long-churn: a bulk load 30-71 s, the commits low all along,
the drop found at 53-81 s). A drop whose cause was proven by a series of its own at its drop level
(app/analysis/mechanism.py's cause window: rows written 291 -> 17,969 a second from 30 to 72 s)
has a second estimate of its edges, from a series that changed sharply. The drop takes the cause's
window when the throughput fits it about as well as its own edges: the two-level fit of the
throughput over the cause's window explains its samples within AGREE of the fit over the drop's
edges, in the drop's own noise.

The comparison is a profile likelihood: with the noise of the drop's fit (its long-run variance,
level_test.statistic's), the reduction of the residual sum of squares a shifted interval buys, in
that variance, is T^2 (T its difference of means over that noise's standard error). Intervals whose
T^2 is within AGREE of the best's are a confidence set for the two edges; the cause's window is
taken when it lies in the set. A throughput that outlasts its cause clearly (a purge lag's commits
recovering ~10 s after the read view closed, a pool still warming 4 s after its size came back)
keeps its own edges: its T^2 there is tens to a hundred below.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from benchlens.app.analysis import level_test
from benchlens.app.analysis.drops import Drop, drop_over, sample_step

# the 95 % quantile of the chi-square distribution with 2 degrees of freedom (a drop's two edges):
# the confidence set of intervals whose T^2 is within it of the drop's
AGREE = 5.991


def cause_edges(
    t: np.ndarray,
    v: np.ndarray,
    drops: list[Drop],
    windows: list[tuple[float, float] | None],
    span: tuple[float, float],
    aside: tuple[tuple[float, float], ...] = (),
) -> list[Drop]:
    """The drops (of throughput v(t)) with their edges at their cause's window (epochs, None for a
    drop without one) where the throughput fits that window within AGREE of its own edges; each
    keeps its baseline, its test and its confirmation. `span`: the steady part, which no edge
    leaves; a window reaching into another drop leaves its drop as it was. `aside`: intervals
    (epochs) of no steady state besides the drops (the run's latency rises), whose samples outside
    a drop and its window are no part of its noise either."""
    t = np.asarray(t, np.float64)
    v = np.asarray(v, np.float64)
    step = sample_step(t) if len(t) > 1 else 1.0
    steady = np.isfinite(v) & (t > span[0]) & (t <= span[1])
    beside = np.zeros(len(t), bool)
    for a, b in aside:
        beside |= _within(t, a, b, step)
    # how many drops hold each sample (once: a 4-hour log has hundreds of drops)
    held = np.zeros(len(t), np.int64) if any(w is not None for w in windows) else None
    for d in drops if held is not None else ():
        held += _within(t, d.start, d.end, step)
    out = []
    for d, w in zip(drops, windows, strict=True):
        moved = None
        if w is not None and held is not None and d.kind == "drop":
            moved = _moved(t, v, steady, held, beside, d, w, step)
        if moved is None:
            out.append(d)
            continue
        a, b = moved
        got = drop_over(t, v, d.baseline, float(t[a] - step), float(t[b]))
        out.append(replace(got, tested=d.tested, confirm_alpha=d.confirm_alpha, own_p=d.own_p))
    return out


def _within(t: np.ndarray, start: float, end: float, step: float) -> np.ndarray:
    """The samples of an interval: those whose middle is in it (a sample covers the `step` before
    its stamp; the cause's series is stamped on another clock: vmstat's seconds start 0.1-0.9 s
    from sysbench's)."""
    mid = t - step / 2
    return (mid > start) & (mid <= end)


def _moved(
    t: np.ndarray,
    v: np.ndarray,
    steady: np.ndarray,
    held: np.ndarray,
    beside: np.ndarray,
    d: Drop,
    w: tuple[float, float],
    step: float,
) -> tuple[int, int] | None:
    """The first and last sample (of t) of drop d's cause window w where d should take it, else
    None. `held`: how many drops hold each sample; `beside`: the samples of other findings."""
    mine, window = _within(t, d.start, d.end, step), _within(t, *w, step)
    others = (held - mine) > 0
    if (window & others).any():
        return None
    use = steady & ~others & ~(beside & ~mine & ~window)
    cause, own = np.flatnonzero(use & window), np.flatnonzero(use & mine)
    if not len(cause) or not len(own) or np.array_equal(cause, own):
        return None
    t_own, n = level_test.strength(v, use, int(own[0]), int(own[-1]))
    if not np.isfinite(t_own) or t_own <= 0:
        return None
    # the drop's noise: the long-run variance its T was computed in
    gap, weight = _contrast(v, use, own)
    variance = (gap / t_own) ** 2 / weight
    # a window as short as a test allows, leaving two samples of rest at least (statistic's own)
    if len(cause) < level_test.MIN_LEN or n - len(cause) < 2:
        return None
    gap_c, weight_c = _contrast(v, use, cause)
    if gap_c <= 0:
        return None
    t_cause = gap_c / np.sqrt(variance * weight_c)
    return (int(cause[0]), int(cause[-1])) if t_own**2 - t_cause**2 <= AGREE else None


def _contrast(v: np.ndarray, use: np.ndarray, inside: np.ndarray) -> tuple[float, float]:
    """Of the used samples of v (`use`), the rest's mean minus the mean of those at `inside`, and
    1/k + 1/(n - k) (k of n)."""
    n, k = int(np.count_nonzero(use)), len(inside)
    total, within = float(np.sum(v[use])), float(np.sum(v[inside]))
    return (total - within) / (n - k) - within / k, 1.0 / k + 1.0 / (n - k)
