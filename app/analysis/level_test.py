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

A series sampled every few seconds is held to the noises as seen at its step: the calibration's
AR(1) noise of phi 0.9 is read as a correlation from one second to the next (a system's counters
are noisy in seconds), so 5-s means of it are correlated at 0.71 from sample to sample
(sample_phi). CRITICAL_MEANS holds the worst of the noises drawn as such means (2, 5, 10 and 30 s,
up to 300 samples); CRITICAL_CAPPED the worst of AR(1) noises of lag-1 correlation up to that,
which keep it at every lag where means lose it faster (longer series, and alphas the first did not
measure); a gauge read at one instant every 2, 5 or 10 s (sessions connected, the history list) is
less correlated still, 0.9 ** step, an AR(1) itself, with caps of its own.
A 26-sample dool capture at 5 s then needs T 7.55 at its alpha of 0.013 (8.74 held to the cap,
12 to every noise).

`between` tests a stretch against each side's own level instead (three levels fitted: before,
during, after; the smaller of its two contrasts), for a drop between two levels, which the rest
held to one level reads as noise; CRITICAL_BETWEEN is the maximum over every interval with
MIN_LEN samples on each side, the worst of the same 1-s noises. Its values are far lower than
CRITICAL's (64 samples at alpha 0.01: 5.99 against 10.17): under the null an interval below both
neighbours is rarer than one below the rest, which a wander at an end of the series gives. It is
used as a last look at candidates every other test left unproven (drops._between_levels).

judged decides a series' candidates together: step-down (the strongest first, each without the
ones proven before it), and for the others the alpha at which a second series may confirm them
(app/analysis/confirm.py).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import numpy as np

from benchlens.app.analysis import level_test_table

# seconds: the horizon over which the false-alarm rate is set (the "per 10,000 s")
HORIZON_S = 10_000.0
# the shortest interval tested, samples (a single low sample is the noise's own)
MIN_LEN = 2
# a candidate its own test does not prove may still be above chance at even odds: at this alpha
# (the first of confirm.py's two tests); also the largest alpha a series is tested at
PLAUSIBLE = 0.5

# n -> ((alpha, critical T), ...), alpha increasing: the (1 - alpha) quantile of max T over every
# interval of at least MIN_LEN samples, the largest over the calibration's noises; CRITICAL_LOG for
# those noises read as latencies (-log of their positive samples). Made by
# bench/level_test_calibration.py (its docstring says how), kept in a module of their own.
CRITICAL = level_test_table.CRITICAL
CRITICAL_LOG = level_test_table.CRITICAL_LOG
# cap -> n -> ((alpha, critical T), ...): the same for noises of lag-1 correlation up to the cap only
CRITICAL_CAPPED = level_test_table.CRITICAL_CAPPED
# step (s) -> n -> ((alpha, critical T), ...): the same for series of the means of every `step`
# seconds of the calibration's 1-s noises, drawn as such (the null a counter's rate sampled every
# few seconds is), up to 300 samples; first choice for such a series, CRITICAL_CAPPED beyond
CRITICAL_MEANS = level_test_table.CRITICAL_MEANS
# n -> ((alpha, critical T), ...) of `between` (a stretch against each side's level), the maximum
# over every interval with MIN_LEN samples on each side, the worst of the 1-s noises
CRITICAL_BETWEEN = level_test_table.CRITICAL_BETWEEN
# the calibration's most correlated noise, AR(1) phi 0.9 (issue #23), read as a correlation from one
# second to the next: a system's counters are noisy in seconds, not in samples, so a series of 5-s
# means of that noise is less correlated from sample to sample (sample_phi: 0.71)
PHI_PER_SECOND = 0.9


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
    c, c2, p = _prefix_sums(x)  # p[k] = sum of x[t] x[t + 1] for t < k
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


def between(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """T of the intervals [a, b] of x (as `statistic`) against each side's own level: the series
    fitted as three levels (before, during, after), and the smaller of (mean(side) - mean(interval))
    / its standard error, the noise (s2, phi) that of the three levels' residuals. A drop between
    two levels: held-out hot-rows-short-hot ran at ~1,420 commits a second, ~1,550 after a -33 %
    drop of 12 s; `statistic` holds the rest to one level and reads the step between them as noise
    (T 8.7 against 10.2). -inf where a side or the interval has fewer than MIN_LEN samples, or the
    noise is 0. Its critical values are CRITICAL_BETWEEN's (the maximum over every such interval)."""
    x = np.asarray(x, np.float64)
    n = x.shape[-1]
    a, b = np.broadcast_arrays(np.asarray(a, np.int64), np.asarray(b, np.int64))
    ok = (a >= MIN_LEN) & (b - a + 1 >= MIN_LEN) & (n - 1 - b >= MIN_LEN)
    a, b = np.clip(a, 0, n - 1), np.clip(b, a, n - 1)
    sums = _prefix_sums(x)
    with np.errstate(all="ignore"):
        parts = [_segment(sums, lo, hi) for lo, hi in ((0 * a, a), (a, b + 1), (b + 1, 0 * b + n))]
        (nl, ml, rl, cl), (ni, mi, ri, ci), (nr, mr, rr, cr) = parts
        s2 = (rl + ri + rr) / (n - 3)
        phi = (cl + ci + cr) / ((nl - 1) + (ni - 1) + (nr - 1)) / s2
        phi = np.clip(phi + (1.0 + 3.0 * phi) / n, 0.0, 0.98)
        scale = s2 * (1.0 + phi) / (1.0 - phi)
        t = np.minimum(
            (ml - mi) / np.sqrt(scale * (1.0 / ni + 1.0 / nl)), (mr - mi) / np.sqrt(scale * (1.0 / ni + 1.0 / nr))
        )
        noise = s2 > 1e-9 * sums[1][..., n : n + 1] / n
    return np.where(ok & np.isfinite(t) & noise, t, -np.inf)


def _prefix_sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cumulative sums of x, of x^2 and of x[t] x[t + 1] (for t < k at k), each from 0."""
    zero = np.zeros((*x.shape[:-1], 1))
    return (
        np.concatenate([zero, np.cumsum(x, axis=-1)], axis=-1),
        np.concatenate([zero, np.cumsum(x * x, axis=-1)], axis=-1),
        np.concatenate([zero, np.cumsum(x[..., 1:] * x[..., :-1], axis=-1)], axis=-1),
    )


def _segment(
    sums: tuple[np.ndarray, np.ndarray, np.ndarray], lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Of the samples lo .. hi - 1 (at least one): how many, their mean, the sum of squares of
    their residuals about it, and the sum of the lag-1 products of those residuals."""
    c, c2, p = sums
    n = c.shape[-1] - 1
    lo, hi = np.clip(lo, 0, n - 1), np.clip(hi, 1, n)  # an empty one (masked by the caller) read as one sample
    k = hi - lo
    s, q = c[..., hi] - c[..., lo], c2[..., hi] - c2[..., lo]
    m = s / k
    paired = (c[..., hi - 1] - c[..., lo]) + (c[..., hi] - c[..., lo + 1])
    cov = (p[..., hi - 1] - p[..., lo]) - m * paired + m * m * (k - 1)
    return k, m, q - s * m, cov


def maximum(
    x: np.ndarray, stat: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = statistic
) -> np.ndarray | float:
    """The largest T over every interval of x (of each row of a 2-D x): the calibration's
    statistic (`stat`: `statistic`, or `between`)."""
    n = np.shape(x)[-1]
    if n < MIN_LEN + 2:
        return np.full(np.shape(x)[:-1], -np.inf) if np.ndim(x) > 1 else -math.inf
    got = stat(x, *every_interval(n)).max(axis=-1)
    return got if np.ndim(x) > 1 else float(got)


@functools.lru_cache(maxsize=64)
def every_interval(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every interval [a, b] of n samples (the calibration draws thousands of series of one n, and a
    run's key series are tested at the few lengths its sources have: computed once a length, read-only since shared)."""
    a, b = np.triu_indices(n)
    a.flags.writeable = b.flags.writeable = False
    return a, b


def sample_phi(step: float, phi: float = PHI_PER_SECOND, gauge: bool = False) -> float:
    """The lag-1 correlation of a series that reports the mean of every `step` seconds of an AR(1)
    noise of `phi` per second (a rate from a counter's difference is such a mean), or, a `gauge`,
    its value at one instant every `step` seconds (sessions connected, the history list): phi **
    step; a step is taken in whole seconds, rounded down (a sub-second one as one second)."""
    m = _seconds(step)
    if gauge:
        return float(phi**m)
    lags = np.arange(-(m - 1), m)
    var = float(np.sum((m - np.abs(lags)) * phi ** np.abs(lags)))
    return float(phi * (phi ** np.arange(m)).sum() ** 2 / var)


def _tables(
    step: float, log: bool, gauge: bool = False, apart: bool = False
) -> list[dict[int, tuple[tuple[float, float], ...]]]:
    """The critical values for a series `step` seconds apart, first choice first: of its noises
    drawn as means of `step` seconds (CRITICAL_MEANS, of the largest step not above its own: a
    coarser series is less correlated), then of the least correlated noises that still cover its
    samples' correlation (CRITICAL_CAPPED, whose caps are sample_phi of 30, 10, 5 and 2 s, means and
    gauges), then of every noise (CRITICAL), each for a size or an alpha the one before did not
    measure. A gauge: no means table (an instant's value is AR(1) at 0.9 ** step, which its caps
    are exactly). A latency: CRITICAL_LOG, which holds every noise."""
    if log:
        return [CRITICAL_LOG]
    if apart:
        return [CRITICAL_BETWEEN]
    rho = sample_phi(step, gauge=gauge)
    cap = min((c for c in CRITICAL_CAPPED if c >= rho - 1e-3), default=None)
    out = [CRITICAL] if cap is None else [CRITICAL_CAPPED[cap], CRITICAL]
    means = None if gauge else max((k for k in CRITICAL_MEANS if k <= _seconds(step)), default=None)
    return out if means is None else [CRITICAL_MEANS[means], *out]


def _seconds(step: float) -> int:
    """A step in whole seconds, down (1.5 s is held to 1 s's noise), at least 1."""
    return max(1, int(step + 1e-3))


def critical(
    n: int, alpha: float, log: bool = False, step: float = 1.0, gauge: bool = False, apart: bool = False
) -> float:
    """The critical T for a series of n samples `step` seconds apart at false-alarm probability
    alpha (interpolated in log n and log alpha; beyond the table, its nearest entries: a series
    shorter than its first row is held to that row's, a longer one to its last). `log`: the
    latencies' table; `gauge`: a value read at an instant every step (sample_phi); `apart`: of
    `between`."""
    if not alpha > 0:
        return math.inf  # no false alarm allowed: nothing passes
    tables = _tables(step, log, gauge, apart)
    sizes = sorted(tables[-1])
    n = min(max(n, sizes[0]), sizes[-1])
    hi = next(k for k in sizes if k >= n)
    lo = max((k for k in sizes if k <= n), default=hi)

    def at(k: int) -> float:
        rows = next(t[k] for t in tables if (k in t and alpha >= t[k][0][0] * (1 - 1e-9)) or t is tables[-1])
        alphas = np.log([r[0] for r in rows])
        crits = [r[1] for r in rows]
        if math.log(alpha) < alphas[0] and len(rows) > 1:
            # below the smallest alpha measured: log alpha extrapolated linearly in T from the two
            # smallest (a maximum of T has a tail that falls faster than that: conservative)
            slope = (crits[0] - crits[1]) / (alphas[1] - alphas[0])
            return float(crits[0] + slope * (alphas[0] - math.log(alpha)))
        return float(np.interp(math.log(alpha), alphas, crits))

    if lo == hi:
        return at(lo)
    w = (math.log(n) - math.log(lo)) / (math.log(hi) - math.log(lo))
    return (1 - w) * at(lo) + w * at(hi)


def p_value(n: int, t: float, log: bool = False, step: float = 1.0, gauge: bool = False) -> float:
    """The false-alarm probability at which T = t of a series of n samples passes (the inverse of
    `critical` in alpha, to 1 %, extrapolated below the tables' smallest alpha as it is); 1 below
    even odds (PLAUSIBLE)."""
    if not t >= critical(n, PLAUSIBLE, log, step, gauge):
        return 1.0
    lo, hi = math.log(P_MIN), math.log(PLAUSIBLE)
    if t >= critical(n, P_MIN, log, step, gauge):
        return P_MIN
    while hi - lo > 0.01:  # critical falls as alpha grows: the alpha where it crosses t
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if critical(n, math.exp(mid), log, step, gauge) > t else (lo, mid)
    return math.exp(hi)


# the smallest p-value said (beyond it, the extrapolation says nothing more)
P_MIN = 1e-9


def combined(p_own: float, p_key: float) -> float:
    """Fisher's combination of two independent tests' p-values, for two: the probability on noise
    alone that their product is as small, x (1 - ln x) for x = p_own p_key."""
    x = p_own * p_key
    return 1.0 if x >= 1.0 else x * (1.0 - math.log(x)) if x > 0 else 0.0


def alpha(n: int, step: float, scale: float = 1.0) -> float:
    """The false-alarm probability of a series of n samples `step` seconds apart: its share of
    `scale` false drops per 10,000 s (at most 1/2)."""
    return min(PLAUSIBLE, scale * n * step / HORIZON_S)


def strength(x: np.ndarray, use: np.ndarray, a: int, b: int, apart: bool = False) -> tuple[float, int]:
    """T of x[a .. b] against the rest (`apart`: `between`'s, against each side), the series being
    the samples `use` marks (finite ones; not a warm-up, not a latency of 0), and how many those
    are; -inf when no sample of a .. b is used."""
    inside = np.flatnonzero(use[a : b + 1])
    n = int(np.count_nonzero(use))
    if not len(inside):
        return -math.inf, n
    place = np.cumsum(use) - 1  # a used sample's index among the used ones
    stat = between if apart else statistic
    return float(stat(x[use], place[a + inside[:1]], place[a + inside[-1:]])[0]), n


def strongest(x: np.ndarray, use: np.ndarray) -> tuple[float, tuple[int, int]] | None:
    """The interval of the used samples of x whose T is largest (in x's indices) and its T, None
    when there is none (too few samples, no noise)."""
    return strongest_apart(x, use, np.zeros(len(use), bool))


def strongest_apart(x: np.ndarray, use: np.ndarray, apart: np.ndarray) -> tuple[float, tuple[int, int]] | None:
    """strongest, over the intervals of the used samples of x that hold no sample `apart` marks
    (between their first and last used sample: a drop left out of the rest, another candidate):
    the largest of a subset of the intervals whose maximum the critical values are, so held to
    them it is tested conservatively."""
    return _strongest(x, use, statistic, apart)


def strongest_between(
    x: np.ndarray, use: np.ndarray, lo: int, hi: int, apart: np.ndarray | None = None
) -> tuple[float, tuple[int, int]] | None:
    """The interval of the used samples of x meeting x[lo .. hi] and holding no sample `apart`
    marks (as strongest_apart) whose `between` T is largest (in x's indices) and its T, None when
    there is none: a candidate whose thresholds took in the level after it (a drop to ~9,000
    commits a second that came back to ~13,000, not ~17,500, read as one stretch to the run's end).
    The largest of a subset of the intervals CRITICAL_BETWEEN is the maximum of: held to it,
    tested conservatively."""
    return _strongest(x, use, between, apart, (lo, hi))


def _strongest(
    x: np.ndarray,
    use: np.ndarray,
    stat: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    apart: np.ndarray | None,
    meets: tuple[int, int] | None = None,
) -> tuple[float, tuple[int, int]] | None:
    """The interval of the used samples of x whose `stat` is largest, among those holding no sample
    `apart` marks and, given `meets`, meeting x[lo .. hi]; its T and (first, last) in x's indices."""
    idx = np.flatnonzero(use)
    n = len(idx)
    if n < MIN_LEN + 2:
        return None
    a, b = every_interval(n)
    t = stat(x[idx], a, b)
    if apart is not None:
        marks = np.concatenate(([0], np.cumsum(apart)))
        t[marks[idx[b] + 1] - marks[idx[a]] > 0] = -np.inf
    if meets is not None:
        t[(idx[b] < meets[0]) | (idx[a] > meets[1])] = -np.inf
    k = int(np.argmax(t))
    return (float(t[k]), (int(idx[a[k]]), int(idx[b[k]]))) if np.isfinite(t[k]) else None


def judged(
    x: np.ndarray,
    use: np.ndarray,
    spans: list[tuple[int, int]],
    step: float,
    scale: float = 1.0,
    log: bool = False,
    proven: list[bool] | None = None,
    selection: float = 1.0,
) -> list[tuple[bool, float, float]]:
    """Per interval [a, b] of `spans` (candidates of one series, apart from each other): whether
    x's own test proves it (significant), and for one it does not, the alpha at which a second
    series must confirm it (app/analysis/confirm.py), 0 when none may, and its own p-value there
    (p_value of its T on the series without the other candidates: what the second series' test is
    combined with).

    Significant: step-down, the strongest first, each tested on the series without the intervals
    proven before it; the first that fails ends it. On noise alone the first test is the whole
    false-alarm rate. (Testing each without every other candidate, or fitting each its own level,
    found the drops of a run with four disturbances, and gave 15-55 false drops per 10,000 s on
    300 s of AR(1) noise of phi 0.9 at CV 1: bench/detection_calibration.py.)

    The others: above chance at even odds (T at alpha PLAUSIBLE, on the series without every other
    candidate: a run with four drops hides each in the others' spread, a 10-s stall to 0 tps read
    T 1.8 beside three drops of -70 %), then alpha / k for the k such: a second series independent
    of this one confirms one of them on noise alone with probability alpha at most (Bonferroni over
    the k), whatever the first test did. The even odds are a filter against a second series that
    moved while this one did not (a cron job's disk writes), not part of that rate.

    `proven`: the spans proven already (by a second series, run_drops): out of the rest from the
    start, as the step-down's own proofs are, not tested again. The step-down goes on after them:
    on noise alone it reaches the others only through a proof that was false, whose rate is the
    confirmation's (a staircase 27,000 -> 15,700 -> 0 statements/s: the stall read T 3.5 beside the
    unproven -43 %, T 62 against 11.1 once that one's disk writes proved it).

    `selection`: the step-down's alpha divided by it (drops.Sensitivity.selection: what a detector's own
    selections of the samples it tests add to the maximum's null rate)."""
    if not spans:
        return []
    n = int(np.count_nonzero(use))
    a_ = alpha(n, step, scale)
    sure = list(proven) if proven is not None else [False] * len(spans)
    left = use.copy()
    for i, (a, b) in enumerate(spans):
        if sure[i]:
            left[a : b + 1] = False
    first = [strength(x, left, a, b)[0] for a, b in spans]
    for i in sorted((i for i in range(len(spans)) if not sure[i]), key=lambda i: -first[i]):
        t, m = strength(x, left, *spans[i])
        if t < critical(m, alpha(m, step, scale) / selection, log, step):
            break
        sure[i] = True
        left[spans[i][0] : spans[i][1] + 1] = False
    own = []
    for i, (a, b) in enumerate(spans):
        alone = left.copy()
        for j, (c, d) in enumerate(spans):
            if j != i:
                alone[c : d + 1] = False
        t, m = strength(x, alone, a, b)
        own.append(1.0 if sure[i] else p_value(m, t, log, step))
    even = [p <= PLAUSIBLE for p in own]
    second = a_ / max(1, sum(even))
    return [(ok, second if e else 0.0, p) for ok, e, p in zip(sure, even, own, strict=True)]
