"""Change points in a history of runs (one value per run, in run order): E-Divisive means with a
Student t-test, as Apache Otava (Hunter) does it, on numpy alone.

How (Otava's two steps, its defaults: window 50, p 0.001):
- split: over windows of `window` runs (sliding by half a window), the split that maximises the
  energy statistic q-hat (Matteson & James' E-Divisive) between the runs before and after it is a
  candidate; it is kept when a t-test between the two sides (bounded by the neighbouring change
  points) gives p below ten times the threshold (a weak change point), and the window is split
  again until the best candidate is not significant;
- merge: over the whole history, the weakest change point (highest p, tested between its
  neighbours) is removed while its p is at or over the threshold, its neighbours tested again.

Two guards of our own, measured by bench/trend_accuracy.py (docs/trend.md has the table):
- an outlier run (a broken run, a host hiccup: far from its neighbours by a robust measure, a
  Hampel filter over `OUTLIER_HALF` runs each side at `OUTLIER_K` MADs) is left out of the
  detection (it is still a point of the chart): it would pull the level of its side and split a
  window where it sits;
- a change point needs `MIN_SIZE` runs after it (and before it): the confirmation users of
  Otava and Conbench ask for before an alert on noisy hosts. A step in the last runs is found
  once enough nights confirm it.
Without them (min size 1, no guard: the `benchlens-unguarded` row) this module finds what Otava
finds; with them, at CV <= 3 % and steps >= 5 %, 100 % of the steps instead of 96.9 % and 0.11
false changes per 100 runs instead of 0.27.

Why our own and not the packages (the same 450 synthetic histories, docs/trend.md):
- `apache-otava` 0.8: 96.9 % of the steps found, 0.46 false changes per 100 runs (ours 100 %,
  0.11); at CV 2-3 % it finds 52-69 % of the 3-5 % steps (ours 83-97 %). Its own install pulls
  in Google BigQuery, Slack, PostgreSQL and Graphite clients and scipy (for one t-test);
- `signal-processing-algorithms` 2.1 (MongoDB's E-Divisive with permutation tests): fewest false
  changes (0.01 per 100 runs) but 94.8 % of the steps found and 9-65 % of the 3-5 % ones; with
  100 permutations p cannot go below 1/101 (no 0.001 level), results vary from call to call
  (numpy's global random state), and a 300-run history takes ~0.3 s against ours 0.012 s.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

WINDOW = 50  # Otava's default
MAX_P = 0.001  # Otava's default
MIN_SIZE = 3  # runs on each side of a change point
OUTLIER_HALF = 4  # runs each side of a run for its robust level
OUTLIER_K = 5.0  # MADs (scaled to a normal sigma) from that level makes an outlier
MAD_FLOOR = 0.005  # a MAD under 0.5 % of the level is taken as 0.5 % (very steady histories)


@dataclass(frozen=True)
class ChangePoint:
    index: int  # the first run after the change, in the values given
    before: float  # mean of the runs since the previous change point
    after: float  # mean of the runs to the next change point
    p: float

    @property
    def change(self) -> float:
        return (self.after - self.before) / abs(self.before) if self.before else math.nan


def outliers(values: np.ndarray, half: int = OUTLIER_HALF, k: float = OUTLIER_K) -> np.ndarray:
    """Runs far from the median of their neighbours (a Hampel filter): a bool mask."""
    x = np.asarray(values, np.float64)
    if len(x) < 4:
        return np.zeros(len(x), bool)
    padded = np.concatenate((np.full(half, np.nan), x, np.full(half, np.nan)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * half + 1)
    near = np.delete(windows, half, axis=1)  # each run's neighbours, itself left out
    level = np.nanmedian(near, axis=1)
    mad = np.maximum(1.4826 * np.nanmedian(np.abs(near - level[:, None]), axis=1), MAD_FLOOR * np.abs(level))
    return np.abs(x - level) > k * mad


def detect(
    values: np.ndarray, window: int = WINDOW, max_p: float = MAX_P, min_size: int = MIN_SIZE, guard: bool = True
) -> list[ChangePoint]:
    """The change points of a history (indices into `values`); NaN values and, with `guard`,
    outliers are left out of the detection."""
    x = np.asarray(values, np.float64)
    keep = np.isfinite(x)
    if guard:
        keep &= ~outliers(np.where(keep, x, np.nanmedian(x) if keep.any() else 0.0))
    where = np.flatnonzero(keep)
    y = x[where]
    found = _merge(y, _split(y, window, _first_pass(max_p), min_size), max_p, min_size)
    bounds = [0, *found, len(y)]
    out = []
    for j, cp in enumerate(found):
        before, after = y[bounds[j] : cp], y[cp : bounds[j + 2]]
        out.append(ChangePoint(int(where[cp]), float(np.mean(before)), float(np.mean(after)), t_test(before, after)))
    return out


def _first_pass(max_p: float) -> float:
    """Otava's relaxed threshold for weak change points."""
    return max_p * 10 if max_p < 0.05 else (max_p * 2 if max_p < 0.5 else max_p)


def _split(y: np.ndarray, window: int, p: float, min_size: int) -> list[int]:
    weak: set[int] = set()
    step = max(1, window // 2)
    start = 0
    while start < len(y):
        end = min(start + window, len(y))
        found = _window_points(y[start:end], p, min_size)
        weak.update(start + c for c in found)
        start = max(start + max(found, default=0), start + step)
    return sorted(weak)


def _window_points(w: np.ndarray, p: float, min_size: int) -> list[int]:
    """E-Divisive within one window: split at the best q-hat while the t-test says so."""
    points: list[int] = []
    d = np.abs(w[:, None] - w[None, :])
    seen: dict[tuple[int, int], tuple[float, int] | None] = {}  # a segment's best split, once
    while True:
        best: tuple[float, int] | None = None
        bounds = [0, *points, len(w)]
        for a, b in itertools.pairwise(bounds):
            if (a, b) not in seen:
                seen[(a, b)] = _best_split(d[a:b, a:b], min_size)
            cand = seen[(a, b)]
            if cand is not None and (best is None or cand[0] > best[0]):
                best = (cand[0], a + cand[1])
        if best is None:
            return points
        cut = best[1]
        k = np.searchsorted(bounds, cut)
        if t_test(w[bounds[k - 1] : cut], w[cut : bounds[k]]) >= p:
            return points
        points = sorted([*points, cut])


def _best_split(d: np.ndarray, min_size: int) -> tuple[float, int] | None:
    """(q-hat, tau) of the split of one segment (its distance matrix) that maximises q-hat."""
    n = len(d)
    tau = np.arange(min_size, n - min_size + 1)
    if not len(tau):
        return None
    # sums of the blocks of d by 2-D prefix sums, every split at once
    p = np.zeros((n + 1, n + 1))
    p[1:, 1:] = d.cumsum(0).cumsum(1)
    total = p[n, n]
    sum_a = p[tau, tau]
    between = p[tau, n] - sum_a
    sum_b = total - 2 * between - sum_a
    m = n - tau
    with np.errstate(divide="ignore", invalid="ignore"):
        within_a = np.where(tau > 1, sum_a / (tau * (tau - 1)), 0.0)
        within_b = np.where(m > 1, sum_b / (m * (m - 1)), 0.0)
    q = tau * m / n * (2 * between / (tau * m) - within_a - within_b)
    i = int(np.argmax(q))
    return float(q[i]), int(tau[i])


def _merge(y: np.ndarray, points: list[int], max_p: float, min_size: int) -> list[int]:
    """Remove the weakest change point while it is not significant (p tested between neighbours)."""
    points = [c for c in points if min_size <= c <= len(y) - min_size]
    while points:
        bounds = [0, *points, len(y)]
        ps = [t_test(y[bounds[j] : c], y[c : bounds[j + 2]]) for j, c in enumerate(points)]
        short = [j for j, c in enumerate(points) if c - bounds[j] < min_size or bounds[j + 2] - c < min_size]
        weakest = short[0] if short else int(np.argmax(ps))
        if not short and ps[weakest] < max_p:
            return points
        del points[weakest]
    return points


def t_test(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided p of Student's t-test with pooled variance (as scipy's ttest_ind_from_stats with
    numpy's std, Otava's call)."""
    n, m = len(a), len(b)
    if n == 0 or m == 0 or n + m <= 2:
        return 1.0
    va = float(np.var(a)) if n > 1 else 0.0
    vb = float(np.var(b)) if m > 1 else 0.0
    df = n + m - 2
    pooled = ((n - 1) * va + (m - 1) * vb) / df
    diff = float(np.mean(a) - np.mean(b))
    if pooled <= 0:
        return 1.0 if diff == 0 else 0.0
    t = diff / math.sqrt(pooled * (1 / n + 1 / m))
    return student_p(t, df)


def student_p(t: float, df: int) -> float:
    """Two-sided tail probability of Student's t: I_x(df/2, 1/2) with x = df / (df + t^2)."""
    return _betainc(df / 2, 0.5, df / (df + t * t))


def _betainc(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function (continued fraction, Numerical Recipes' betacf)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1 - x) / b


def _betacf(a: float, b: float, x: float) -> float:
    tiny, eps = 1e-300, 1e-15
    qab, qap, qam = a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)), -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < eps:
            break
    return h
