"""Is a stretch of a short series below the rest of it by more than its noise? A test with a known
false-alarm rate for series too short to measure their noise apart from their drops (issue #23).

An interval [a, b] of a series x of n samples is compared with the rest of it (an epidemic
change: a level that leaves and comes back, or leaves at the end):

    T = (mean(rest) - mean(interval)) / sqrt(s2 (1/L + 1/(n - L)) (1 + phi) / (1 - phi))

s2 and phi are the variance and the lag-1 autocorrelation of the residuals of that two-level fit
(phi with its small-sample bias (1 + 3 phi) / n added back, clipped to 0 .. 0.98): the series'
noise measured with the drop taken out, as an AR(1) long-run variance. The statistic is only
partly self-normalised: on a short series a strongly correlated noise (phi 0.9 over 60 samples)
wanders in steps that the two-level fit takes for the drop, and its residuals read little
correlation. So the critical value is not a normal quantile but the (1 - alpha) quantile of the
maximum of T over every interval of at least two samples, on simulated noise of every kind the
calibration covers (AR(1) phi 0-0.9, Poisson counts of mean 1 and 5), the worst of them: a
candidate picked by any detector is tested as if the data had picked it (the maximum), whatever
the noise. alpha is the series' share of the horizon (n x step / 10,000 s): at most one false
drop per 10,000 s. bench/level_test_calibration.py made CRITICAL (level_test_table.py) and prints it
again; tests/analysis/test_level_test.py checks a few entries against a fresh simulation.

What it costs: of the 39 drops kept on the recorded corpus's disturbed runs (60-160 samples), 18
pass it (complete stalls, long drops: a global read lock, a table lock, a CPU hog to the end); the
other 21 are kept because another series confirms them (run_drops: the latency rose significantly,
or a cause is proven). bench/detection_calibration.md has the power on synthetic short series.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from benchlens.app.analysis import level_test_table

# seconds: the horizon over which the false-alarm rate is set (the "per 10,000 s")
HORIZON_S = 10_000.0
# the shortest interval tested, samples (a single low sample is the noise's own)
MIN_LEN = 2

# n -> ((alpha, critical T), ...), alpha increasing: the (1 - alpha) quantile of max T over every
# interval of at least MIN_LEN samples, the largest over the calibration's noises; CRITICAL_LOG for
# those noises read as latencies (-log of their positive samples). Made by
# bench/level_test_calibration.py (its docstring says how), kept in a module of their own.
CRITICAL = level_test_table.CRITICAL
CRITICAL_LOG = level_test_table.CRITICAL_LOG


def statistic(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """T of the intervals [a, b] (inclusive, arrays of one shape) of x (finite values; rows of a
    2-D x are series of their own: the calibration's draws); -inf where an interval is shorter
    than MIN_LEN, leaves fewer than 2 samples outside, or the noise is 0."""
    x = np.asarray(x, np.float64)
    n = x.shape[-1]
    a, b = np.broadcast_arrays(np.asarray(a, np.int64), np.asarray(b, np.int64))
    length = b - a + 1
    ok = (length >= MIN_LEN) & (n - length >= 2) & (a >= 0) & (b < n)
    a, b = np.clip(a, 0, n - 1), np.clip(b, 0, n - 1)
    zero = np.zeros((*x.shape[:-1], 1))
    c = np.concatenate([zero, np.cumsum(x, axis=-1)], axis=-1)
    c2 = np.concatenate([zero, np.cumsum(x * x, axis=-1)], axis=-1)
    # p[k] = sum of x[t] x[t + 1] for t < k
    p = np.concatenate([zero, np.cumsum(x[..., 1:] * x[..., :-1], axis=-1)], axis=-1)
    with np.errstate(all="ignore"):
        s_in, q_in = c[..., b + 1] - c[..., a], c2[..., b + 1] - c2[..., a]
        s_out, q_out = c[..., n : n + 1] - s_in, c2[..., n : n + 1] - q_in
        m_in, m_out = s_in / length, s_out / (n - length)
        s2 = ((q_in - s_in * m_in) + (q_out - s_out * m_out)) / (n - 2)
        # lag-1 products of the residuals, pairs within one segment: inside (a .. b), left of it
        # (0 .. a - 1) and right of it (b + 1 .. n - 1), each around its segment's mean
        inner = (c[..., b] - c[..., a]) + (c[..., b + 1] - c[..., a + 1])
        cov_in = (p[..., b] - p[..., a]) - m_in * inner + m_in * m_in * (length - 1)
        left = np.maximum(a - 1, 0)
        right0 = np.minimum(b + 1, n - 1)
        sums_out = (
            c[..., left]
            + (c[..., a] - c[..., np.minimum(a, 1)])
            + (c[..., n - 1 : n] - c[..., right0])
            + (c[..., n : n + 1] - c[..., np.minimum(b + 2, n)])
        )
        pairs_out = left + np.maximum(n - 2 - b, 0)
        products_out = p[..., left] + (p[..., n - 1 : n] - p[..., right0])
        cov_out = products_out - m_out * sums_out + m_out * m_out * pairs_out
        phi = (cov_in + cov_out) / ((length - 1) + pairs_out) / s2
        phi = np.clip(phi + (1.0 + 3.0 * phi) / n, 0.0, 0.98)
        t = (m_out - m_in) / np.sqrt(s2 * (1.0 / length + 1.0 / (n - length)) * (1.0 + phi) / (1.0 - phi))
        # a noise below the rounding of the sums it came from is none (a count that is 1 but once)
        noise = s2 > 1e-9 * c2[..., n : n + 1] / n
    return np.where(ok & np.isfinite(t) & noise, t, -np.inf)


def maximum(x: np.ndarray) -> np.ndarray | float:
    """The largest T over every interval of x (of each row of a 2-D x): the calibration's
    statistic."""
    n = np.shape(x)[-1]
    if n < MIN_LEN + 2:
        return np.full(np.shape(x)[:-1], -np.inf) if np.ndim(x) > 1 else -math.inf
    got = statistic(x, *_intervals(n)).max(axis=-1)
    return got if np.ndim(x) > 1 else float(got)


@functools.lru_cache(maxsize=64)
def _intervals(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every interval [a, b] of n samples (the calibration draws thousands of series of one n)."""
    return np.triu_indices(n)


def critical(n: int, alpha: float, log: bool = False) -> float:
    """The critical T for a series of n samples at false-alarm probability alpha (interpolated in
    log n and log alpha; beyond the table, its nearest entries: a series shorter than its first
    row is held to that row's, a longer one to its last). `log`: the latencies' table."""
    table = CRITICAL_LOG if log else CRITICAL
    sizes = sorted(table)
    n = min(max(n, sizes[0]), sizes[-1])
    hi = next(k for k in sizes if k >= n)
    lo = max((k for k in sizes if k <= n), default=hi)

    def at(k: int) -> float:
        rows = table[k]
        alphas = np.log([r[0] for r in rows])
        crits = [r[1] for r in rows]
        return float(np.interp(math.log(alpha), alphas, crits))

    if lo == hi:
        return at(lo)
    w = (math.log(n) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return (1 - w) * at(lo) + w * at(hi)


def significant(
    x: np.ndarray, use: np.ndarray, a: int, b: int, step: float, scale: float = 1.0, log: bool = False
) -> bool:
    """Whether x[a .. b] is below the rest of x beyond chance at one false drop per 10,000 s
    (`scale` times that: a sensitivity's choice), the series tested being the samples `use` marks
    (finite ones; not a warm-up, not a latency of 0); `log`: x is -log of a latency (its own
    table). False when no sample of a .. b is used."""
    inside = np.flatnonzero(use[a : b + 1])
    if not len(inside):
        return False
    place = np.cumsum(use) - 1  # a used sample's index among the used ones
    kept = x[use]
    n = len(kept)
    t = float(statistic(kept, place[a + inside[:1]], place[a + inside[-1:]])[0])
    return t >= critical(n, min(0.5, scale * n * step / HORIZON_S), log)
