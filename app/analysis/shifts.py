"""Dips in a series with a known false-alarm rate (issue #23 part 1): a test of an interval's mean
against its surroundings, and a multiscale scan for the intervals that pass it.

    z = (mean(side) - mean(interval)) / se(L, R),   for each side of R = max(L, ref_min) samples

- se is exact for the noise's variogram (Variogram): gamma(k) measured on the series at a ladder of
  lags (a median absolute deviation, or a 1 %-trimmed variance) and fitted by white plus AR(1)
  noise, nugget + sill (1 - phi^k), capped by the series' own variance. An AR(1) coefficient fitted
  to a run with a drop in it reads the drop's shift as correlation; a raw variogram's scatter from
  lag to lag makes contrast variances negative; the fitted one is valid and checked against
  simulated AR(1) (tests/analysis/test_shifts.py).
- `significance`: the interval is a dip when z exceeds, on every side it has (the right one may be
  missing at the series' end), sqrt(2 log(H / L)) + offset, H a fixed horizon of 10,000 s in
  samples: about H / L disjoint intervals of length L per horizon, whose chance maximum grows as
  sqrt(2 log(H / L)) (Duembgen and Spokoiny's multiscale penalty); a fixed horizon, not the series'
  length, keeps the rate per second the same for any length. The noise is the rest of the series'
  (the interval, and the dips accepted before, left out), and the threshold is Student's t of the
  noise estimate's degrees of freedom (Bartlett's n (1 - rho^2) / (1 + rho^2)). Needing both sides
  keeps a drift or a step between levels from being a dip. Its depth must pass the size floor.
- `scan` looks at every length of a ladder and every start with cumulative sums, takes the
  intervals that pass greedily (most significant first, none overlapping) and `refine` moves their
  edges to the least-squares change points between the reference level and the interval's.

bench/detection_calibration.py measures the false findings and the power; drops.py uses the test on
the candidates of its thresholds and the scan for what they miss, on series long enough to measure
their noise apart from their drops (drops.TESTABLE); rises.py tests the negated logarithm of a
latency, so a rise is a ratio as a drop is a fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

MAD_TO_SIGMA = 1.4826
# seconds: the horizon over which the false-alarm rate is set (the "per 10,000 s")
HORIZON_S = 10_000.0


# pairs of samples a variogram's lag is estimated on, at most
PAIRS = 5_000


class Variogram:
    """The noise of a series as its variogram gamma(k) = Var(x(t + k) - x(t)) / 2, measured on the
    series itself at lags 1 .. n / 2 (interpolated between a geometric ladder of lags, held beyond
    the last one), and what it implies for the difference of the means of two adjacent stretches.
    No model of the noise is assumed: AR(1) noise, a slow wander or a random walk each give the
    contrast variance their own variogram gives (an AR(1) model fitted to the recorded runs, whose
    throughput wanders over tens of seconds as well as from second to second, put a 12-s drop of
    45 % at z 3 against its fitted long-run variance).

    gamma(k) is half the mean square of the lagged differences with their largest 1 % left out
    (divided by 0.925, the share of a normal variance that trimming keeps): a variance, as the
    means' is, and not the median absolute deviation's bulk, which misses the deep second-long
    dips of a bursty series; the trimming keeps one level shift of the series (k outlying
    differences at lag k) from setting it."""

    def __init__(
        self, x: np.ndarray, max_lag: int | None = None, robust: bool = False, cap: float | None = None
    ) -> None:
        n = len(x)
        top = max(1, (n // 2) if max_lag is None else min(max_lag, n // 2))
        lags = np.unique(np.round(np.geomspace(1, top, num=min(top, 24))).astype(int))
        var = _robust_var if robust else _trimmed_var
        # at most PAIRS pairs a lag, evenly spaced: the estimate's spread is then ~2 %, and a 24-h
        # series' lags cost milliseconds
        every = max(1, n // PAIRS)
        # x[k + j every] - x[j every]: the lagged differences taken, not computed and thinned
        gam = np.array([var(x[k::every][: len(x[:-k:every])] - x[:-k:every]) / 2.0 for k in lags])
        ok = np.isfinite(gam)
        self.lags, self.gamma = lags[ok], gam[ok]
        if cap is None:
            cap = noise_cap(x, robust)
        self.nugget, self.sill, self.phi = _fit(self.lags, self.gamma, n, cap)
        self.sigma = float(np.sqrt(self.nugget + self.sill))
        self.n = int(np.isfinite(x).sum())
        self._seen: dict[tuple[int, float], float] = {}
        self._tables: dict[tuple[int, int], np.ndarray] = {}
        # prefix sums of gamma(k) and k gamma(k), k = 0 .. n: any sum of gamma over a range of lags,
        # weighted by a linear function of the lag, in O(1)
        # gamma is at its sill to 1e-9 beyond `top` lags (_sum holds its last value there)
        top = n if self.phi >= 1.0 else min(n, 2 + int(math.log(1e-9) / math.log(self.phi))) if self.phi > 0 else 1
        k = np.arange(top + 1, dtype=np.float64)
        g = self.nugget + self.sill * (1.0 - self.phi**k)
        g[0] = 0.0
        self._c0 = np.concatenate(([0.0], np.cumsum(g)))
        self._c1 = np.concatenate(([0.0], np.cumsum(k * g)))

    def _sum(self, lo: np.ndarray, hi: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """sum over lo <= k < hi of (a + b k) gamma(k) (k beyond the series: its last gamma)."""
        top = len(self._c0) - 1
        lo_c, hi_c = np.minimum(lo, top).astype(np.int64), np.minimum(hi, top).astype(np.int64)
        s0 = self._c0[hi_c] - self._c0[lo_c]
        s1 = self._c1[hi_c] - self._c1[lo_c]
        extra = np.maximum(hi - np.maximum(lo, top), 0)  # lags past the series' length
        last = self._c0[top] - self._c0[top - 1] if top >= 1 else 0.0
        first_extra = np.maximum(lo, top)
        s_extra = last * (a * extra + b * (first_extra + hi - 1) * extra / 2.0)
        return a * s0 + b * s1 + s_extra

    def contrast_se(self, length: int, r: np.ndarray) -> np.ndarray:
        """Standard error of mean(interval of `length`) - mean(adjacent side of r samples), for each r:
        Var = 2 S_AB / (L R) - S_AA / L^2 - S_BB / R^2, with S the sums of gamma over the pairs of
        samples within and across the two stretches (for white noise: sigma^2 (1 / L + 1 / R))."""
        return self.contrast_se_of(np.full(np.shape(r), float(length)), r)

    def sides(self, length: int, top: int) -> np.ndarray:
        """contrast_se(length, k) for every side of k = 0 .. top samples (k = 0 read as 1), the same
        values, remembered: the scan's short lengths ask tens of thousands of sides of a few
        distinct sizes, which one table read answers (finding them with np.unique, and the sides
        of every length with a dictionary, was about a fifth of a day's detection)."""
        self.prepare_sides([(length, top)])
        return self._tables[(length, top)]

    def prepare_sides(self, wanted: list[tuple[int, int]]) -> None:
        """sides(length, top) of each (length, top) pair, computed together: one call of the
        contrast's thirty array operations for every length of a scan, not one per length (a
        day's scan asks twenty such tables; each call's cost is numpy's dispatch, not its sums)."""
        missing = [(length, top) for length, top in dict.fromkeys(wanted) if (length, top) not in self._tables]
        tables = self.contrast_se_each([(length, np.arange(top + 1, dtype=np.float64)) for length, top in missing])
        self._tables.update(zip(missing, tables, strict=True))

    def contrast_se_each(self, asked: list[tuple[int, np.ndarray]]) -> list[np.ndarray]:
        """contrast_se(length, r) of each (length, r) asked, computed in one call of
        contrast_se_of (elementwise: the same values as one call each)."""
        if not asked:
            return []
        m = np.concatenate([np.full(len(r), float(length)) for length, r in asked])
        se = self.contrast_se_of(m, np.concatenate([r for _, r in asked]))
        return np.split(se, np.cumsum([len(r) for _, r in asked])[:-1])

    def _one(self, length: int, r: float) -> float:
        """contrast_se of one side length, remembered: the scan and the tests ask the same ones."""
        key = (length, r)
        if key not in self._seen:
            self._seen[key] = float(self.contrast_se(length, np.array([r]))[0])
        return self._seen[key]

    def contrast_se_of(self, m: np.ndarray, r: np.ndarray) -> np.ndarray:
        """contrast_se of intervals of m[i] samples against sides of r[i] samples (at least 1),
        elementwise: the same value for a pair whatever the others."""
        rr = np.maximum(np.asarray(r, np.float64), 1.0)
        lo, hi = np.minimum(m, rr), np.maximum(m, rr)
        one, zero = np.ones(len(rr)), np.zeros(len(rr))
        # pairs across at lag k: k (k <= lo), lo (lo < k <= hi), m + r - k (hi < k < m + r)
        across = (
            self._sum(one, lo + 1, zero, one)
            + self._sum(lo + 1, hi + 1, lo, zero)
            + self._sum(hi + 1, m + rr, m + rr, -one)
        )
        var = 2.0 * across / (m * rr) - self._within(m) / m**2 - self._within(rr) / rr**2
        return np.sqrt(np.maximum(var, 0.0))

    def _within(self, m: np.ndarray) -> np.ndarray:
        """sum over ordered pairs within m samples: 2 (m - k) gamma(k), k = 1 .. m - 1."""
        return self._sum(np.ones(len(m)), m, 2.0 * m, -2.0 * np.ones(len(m)))


# the AR(1) coefficients the fit tries: from white noise to a wander over hundreds of samples
PHIS = (0.0, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995)


def _fit(lags: np.ndarray, gamma: np.ndarray, n: int, cap: float) -> tuple[float, float, float]:
    """(nugget, sill, phi) of gamma(k) = nugget + sill (1 - phi^k), k >= 1: white noise plus AR(1)
    noise, a valid variogram (the contrast variances it gives are never negative, which the raw
    estimates' +-5 % scatter from lag to lag made them: a difference of two large sums), fitted by
    least squares weighted by the pairs behind each estimate, nugget and sill >= 0, and
    nugget + sill (the noise's variance) at most `cap`, the series' own variance: fitted on short
    lags alone, a wander that saturates and a random walk look alike, and the fit took the random
    walk (a 75-s run whose throughput rose 10 % over 9 s was read as phi 0.995, sigma 1,100 tps
    around a level of 1,100)."""
    if not len(lags) or not np.isfinite(gamma).all():
        return 0.0, 0.0, 0.0
    w = np.sqrt(np.maximum(n - lags, 1.0))
    y = gamma * w
    best = (np.inf, float(np.median(gamma)), 0.0, 0.0)
    for phi in PHIS:
        decay = phi ** lags.astype(np.float64)
        basis = np.stack((np.ones(len(lags)), 1.0 - decay), axis=1)
        fits = []
        for cols in ((0, 1), (0,), (1,)):
            a = basis[:, cols] * w[:, None]
            coef, *_ = np.linalg.lstsq(a, y, rcond=None)
            full = np.zeros(2)
            full[list(cols)] = coef
            fits.append(full)
        if cap > 0:  # on the cap: gamma = cap - sill phi^k
            sill = float(np.clip(np.dot(decay * w, cap * w - y) / max(np.dot(decay * w, decay * w), 1e-300), 0.0, cap))
            fits.append(np.array([cap - sill, sill]))
        for full in fits:
            if (full < 0).any() or (cap > 0 and full.sum() > cap * (1.0 + 1e-9)):
                continue
            sse = float(np.sum((basis @ full * w - y) ** 2))
            if sse < best[0]:
                best = (sse, float(full[0]), float(full[1]), phi)
    return best[1], best[2], best[3]


def noise_cap(x: np.ndarray, robust: bool) -> float:
    """The variance a Variogram of x is capped at (its fit's `cap`): the series' own, about its
    median, robustly or 1 %-trimmed as its lags are; a caller measuring two variograms of one
    series computes it once (three medians of a day's 86,400 samples)."""
    finite = x[np.isfinite(x)]
    return (_robust_var if robust else _trimmed_var)(finite - np.median(finite)) if len(finite) else 0.0


def middle(a: np.ndarray) -> np.ndarray:
    """np.median(a, axis=-1) of values without NaN, the same values: the middle element, or the
    mean of the two middle ones, of one partition. np.median also partitions at the last element to
    look for NaN and takes a mean of one element: 6.6 against 1.1 ms on the 17,256 windows of 25
    of a 24 h series' rolling median; and a variogram's 46 medians of 5,000 lagged differences."""
    h = a.shape[-1] // 2
    if a.shape[-1] % 2:
        return np.partition(a, h, axis=-1)[..., h]
    part = np.partition(a, (h - 1, h), axis=-1)
    return (part[..., h - 1] + part[..., h]) / 2.0


def _robust_var(d: np.ndarray) -> float:
    """The squared median absolute deviation (normal-consistent): k outlying differences of a
    level shift at lag k move it little while they are a minority."""
    d = d[np.isfinite(d)]
    if len(d) < 8:
        return np.nan
    centre = float(middle(d))
    mad = float(middle(np.abs(d - centre))) * MAD_TO_SIGMA
    if not mad > 0:  # a count mostly unchanged from one sample to the next: the mean deviation
        mad = float(np.mean(np.abs(d - centre))) * math.sqrt(math.pi / 2.0)
    return mad * mad


def _trimmed_var(d: np.ndarray) -> float:
    d = d[np.isfinite(d)]
    if len(d) < 8:
        return np.nan
    sq = d * d
    keep = max(1, int(len(sq) * 0.99))
    if keep < len(sq):  # the largest 1 % left out: a partition, not a sort (24 h of lags: 28 s -> 1 s)
        sq = np.partition(sq, keep - 1)[:keep]
    return float(np.mean(sq)) / 0.925


@dataclass(frozen=True)
class ScanParams:
    # the offset added to the multiscale penalty: the sensitivity (calibrated in bench/)
    offset: float
    # a dip is at least this fraction below its reference (the size floor)
    depth: float
    # samples: the shortest interval looked at
    min_len: int
    # samples: the reference on each side is max(L, ref_min) long, clipped by the series' ends
    ref_min: int = 20
    # a side with fewer samples than this (and than ref_min / 2) is missing
    side_min: int = 3
    # the ladder of lengths grows by this factor
    ladder: float = 1.25
    # upward spikes are clipped at the local level + clip sigmas
    clip: float = 4.0
    # the horizon in samples: set by the caller from the series' sampling interval
    horizon: float = HORIZON_S
    # x is a logarithm: the depth of a dip is 1 - exp(level - ref), not 1 - level / ref
    log: bool = False
    # significance measures the noise of the rest robustly (a median absolute deviation), else as
    # a 1 %-trimmed variance
    robust: bool = False


@dataclass(frozen=True)
class Dip:
    a: int  # first sample of the interval
    b: int  # last sample
    ref: float  # the reference level (mean of the sides)
    level: float  # the interval's mean
    z: float  # the smaller of the sides' z


def scan(
    x: np.ndarray,
    p: ScanParams,
    start: int = 0,
    local: np.ndarray | None = None,
    taken: np.ndarray | None = None,
    cap: float | None = None,
) -> list[Dip]:
    """The dips of x (NaN gaps allowed) at or after sample `start`, most significant first taken,
    none overlapping; `local` is the series' local level for clipping spikes (none: no clipping);
    `taken`: samples of findings already made, left out of the references and never a dip again;
    `cap`: noise_cap(x[start:], True) when the caller has it."""
    n = len(x)
    if n - start < p.min_len + p.side_min:
        return []
    lag = max(6, 2 * p.min_len, (n - start) // 8)
    nz = Variogram(x[start:], max_lag=lag, robust=True, cap=cap)
    return _passes(x, nz, p, start, local, taken) if nz.sigma > 0 else []


def _passes(
    x: np.ndarray, nz: Variogram, p: ScanParams, start: int, local: np.ndarray | None, taken: np.ndarray | None
) -> list[Dip]:
    """The dips of x for the noise nz: a second pass with the dips found left out of the references
    (a first one only when nothing new was found: a day's 173 known drops gave a second pass each
    time, half the scan's time, when they were not left out from the start)."""
    n = len(x)
    xc = np.minimum(x, local + p.clip * nz.sigma) if local is not None else x
    found: list[Dip] = []
    masked = np.zeros(n, bool) if taken is None else taken.copy()
    for _ in range(2):
        ref = np.where(masked, np.nan, xc)
        new = _select(_candidates(xc, ref, nz, p, start), masked)
        if not new:
            break
        for d in new:
            masked[d.a : d.b + 1] = True
        found += new
    return sorted(found, key=lambda d: d.a)


def _sums(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    ok = np.isfinite(x)
    return np.concatenate(([0.0], np.cumsum(np.where(ok, x, 0.0)))), np.concatenate(([0], np.cumsum(ok)))


def _ladder(p: ScanParams, n: int) -> list[int]:
    out: list[int] = []
    length = float(p.min_len)
    while length <= n - p.side_min:
        if not out or int(length) > out[-1]:
            out.append(int(length))
        length *= p.ladder
    return out


class _Stretches(NamedTuple):
    """The intervals of one length a scan looks at: their first samples a, ends b (exclusive), how
    many finite samples each holds and their mean, and each side's count and mean (r samples)."""

    a: np.ndarray
    b: np.ndarray
    r: int
    cin: np.ndarray
    lvl: np.ndarray
    cl: np.ndarray
    left: np.ndarray
    cri: np.ndarray
    right: np.ndarray


def _candidates(
    x: np.ndarray, ref: np.ndarray, nz: Variogram, p: ScanParams, start: int
) -> list[tuple[float, int, int, float, float]]:
    """(z, a, b, ref, level) of the intervals that pass, local maxima of z at each length."""
    n = len(x)
    sums = (*_sums(x), *_sums(ref))
    lengths = _ladder(p, n - start)
    every = [_stretches(sums, n, length, max(length, p.ref_min), start) for length in lengths]
    # stretches that outnumber their sides read one table of them; the standard errors of the
    # others' sides are computed together: each call's cost is numpy's dispatch, not its sums
    nz.prepare_sides([(length, st.r) for length, st in zip(lengths, every, strict=True) if len(st.a) > st.r])
    few = [(length, st) for length, st in zip(lengths, every, strict=True) if len(st.a) <= st.r]
    both = nz.contrast_se_each([(length, np.concatenate((st.cl, st.cri))) for length, st in few])
    sides = {length: np.split(se, 2) for (length, _), se in zip(few, both, strict=True)}
    out = []
    for length, st in zip(lengths, every, strict=True):
        if length in sides:
            se_l, se_r = sides[length]
        else:
            table = nz.sides(length, st.r)
            se_l, se_r = table[st.cl], table[st.cri]
        out += _passing(st, se_l, se_r, p, n, length)
    return out


def _stretches(
    sums: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], n: int, length: int, r: int, start: int
) -> _Stretches:
    """The intervals of `length` from `start` on, every length // 4 samples, from the cumulative
    sums of x and of the reference (x where it may be a side) and their finite counts."""
    sx, cx, sr, cr = sums
    stride = max(1, length // 4)
    a = np.arange(start, n - length + 1, stride)
    m = len(a)

    def at(c: np.ndarray, first: int) -> np.ndarray:
        return _strided(c, first, m, stride)

    cin = at(cx, start + length) - at(cx, start)
    with np.errstate(invalid="ignore", divide="ignore"):
        lvl = (at(sx, start + length) - at(sx, start)) / cin
        # the sides: r samples before a (from 0 at the series' start), after b (to its end)
        cl = at(cr, start) - at(cr, start - r)
        left = (at(sr, start) - at(sr, start - r)) / cl
        cri = at(cr, start + length + r) - at(cr, start + length)
        right = (at(sr, start + length + r) - at(sr, start + length)) / cri
    return _Stretches(a, a + length, r, cin, lvl, cl, left, cri, right)


def _passing(
    st: _Stretches, se_l: np.ndarray, se_r: np.ndarray, p: ScanParams, n: int, length: int
) -> list[tuple[float, int, int, float, float]]:
    """(z, a, b, ref, level) of the stretches of one length that pass, local maxima of z."""
    need = min(p.side_min, max(1, st.r // 2))
    has_l, has_r = st.cl >= need, st.cri >= need
    zl = np.where(has_l, (st.left - st.lvl) / se_l, np.inf)
    zr = np.where(has_r, (st.right - st.lvl) / se_r, np.inf)
    # a missing right side is allowed only at the series' end (a drop lasting to the end)
    ok_sides = has_l & (has_r | (st.b >= n - need))
    z = np.minimum(zl, zr)
    refl = np.where(has_r, (st.left * st.cl + st.right * st.cri) / (st.cl + st.cri), st.left)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        depth = 1.0 - (np.exp(st.lvl - refl) if p.log else st.lvl / refl)
    thr = math.sqrt(2.0 * math.log(max(p.horizon / length, math.e))) + p.offset
    positive = True if p.log else refl > 0
    good = ok_sides & (st.cin >= max(1, length // 2)) & (z > thr) & (depth >= p.depth) & positive
    if not good.any():
        return []
    zz = np.where(good, z, -np.inf)
    peak = good & (zz >= np.concatenate(([-np.inf], zz[:-1]))) & (zz >= np.concatenate((zz[1:], [-np.inf])))
    return [
        (float(z[i]), int(st.a[i]), int(st.b[i]) - 1, float(refl[i]), float(st.lvl[i])) for i in np.flatnonzero(peak)
    ]


def _strided(c: np.ndarray, first: int, m: int, stride: int) -> np.ndarray:
    """c[np.clip(first + stride * np.arange(m), 0, len(c) - 1)], the same values, read as a strided
    slice (a view) with the clipped ends filled: the scan reads its cumulative sums at tens of
    thousands of starts a length: a gather of them was 5 % of a day's detection's instructions."""
    last = len(c) - 1
    k_lo = min(m, max(0, -(first // stride))) if first < 0 else 0  # indices below 0
    k_hi = min(m, (last - first) // stride + 1) if first <= last else 0  # indices up to last
    k_hi = max(k_hi, k_lo)
    mid = c[first + stride * k_lo : first + stride * (k_hi - 1) + 1 : stride] if k_hi > k_lo else c[:0]
    if k_lo == 0 and k_hi == m:
        return mid
    return np.concatenate((np.full(k_lo, c[0]), mid, np.full(m - k_hi, c[last])))


def _select(cands: list[tuple[float, int, int, float, float]], taken: np.ndarray) -> list[Dip]:
    """The candidates most significant first, each kept if it overlaps no interval kept before."""
    occupied = taken.copy()
    out = []
    for z, a, b, ref, level in sorted(cands, key=lambda c: -c[0]):
        if occupied[a : b + 1].any():
            continue
        occupied[a : b + 1] = True
        out.append(Dip(a, b, ref, level, z))
    return out


def refine(x: np.ndarray, d: Dip, lo: int, hi: int) -> tuple[int, int]:
    """The dip's edges as least-squares change points between its reference level and its own,
    each searched within half the dip's length (bounded by lo and hi, the neighbours' edges)."""
    length = d.b - d.a + 1
    half = max(2, length // 2)
    y = np.where(np.isfinite(x), x, (d.ref + d.level) / 2.0)
    gain = (y - d.ref) ** 2 - (y - d.level) ** 2  # > 0: the sample is nearer the dip's level
    a0, a1 = max(lo, d.a - half), min(d.a + half, d.b)
    # start at s: the samples s..a1 are in the dip, a0..s-1 at the reference
    g = gain[a0 : a1 + 1]
    suffix = np.cumsum(g[::-1])[::-1]
    a = a0 + int(np.argmax(suffix))
    b0, b1 = max(d.b - half, a), min(d.b + half, hi)
    g = gain[b0 : b1 + 1]
    b = b0 + int(np.argmax(np.cumsum(g)))
    return a, b


def significance(
    x: np.ndarray,
    a: int,
    b: int,
    p: ScanParams,
    start: int = 0,
    others: np.ndarray | None = None,
    shared: Variogram | None = None,
) -> Dip | None:
    """The interval a..b as a dip of x if it is one: its mean below the mean of each side it has
    (R = max(L, ref_min) samples, the right side missing only at the series' end) by more than the
    multiscale penalty plus the offset, in standard errors, and by the size floor. The noise is
    measured on the residuals of the fit the dip makes (x minus the means before, during and after
    it, `others` - other dips - left out): under the alternative, as a likelihood-ratio test does,
    so a drop that is a third of a short run is not its own noise (measured on the raw series, a
    40-s drop of 45 % in a 100-s run read as z 1.8)."""
    n = len(x)
    length = b - a + 1
    r = max(length, p.ref_min)
    need = min(p.side_min, max(1, r // 2))
    left, right = x[max(a - r, start) : a], x[b + 1 : min(b + 1 + r, n)]
    left, right = left[np.isfinite(left)], right[np.isfinite(right)]
    inside = x[a : b + 1]
    inside = inside[np.isfinite(inside)]
    if len(left) < need or (len(right) < need and b + 1 + need <= n - 1) or len(inside) < max(1, length // 2):
        return None
    # the noise of the rest of the series: the interval left out (chosen for being low, its own
    # samples would bias the noise either way), and the other candidates with it
    # `shared`: the whole series' noise, for an interval too short a part of it to change it
    nz = shared
    if nz is None:
        rest = x[start:].astype(np.float64, copy=True)
        if others is not None:
            rest[others[start:]] = np.nan
        rest[a - start : b + 1 - start] = np.nan
        nz = Variogram(rest, max_lag=max(6, 2 * p.min_len, int(np.isfinite(rest).sum()) // 4), robust=p.robust)
    if not nz.sigma > 0:
        return None
    level = _mean(inside)
    sides = [s for s in (left, right) if len(s) >= need]
    z = min((_mean(s) - level) / nz._one(length, float(len(s))) for s in sides)
    ref = _mean(np.concatenate(sides))
    depth = 1.0 - (math.exp(level - ref) if p.log else (level / ref if ref > 0 else 1.0))
    thr = math.sqrt(2.0 * math.log(max(p.horizon / length, math.e))) + p.offset
    # the noise is itself an estimate, from few independent samples in a short or correlated
    # series: the normal threshold becomes Student's t's of as many degrees of freedom
    rho = nz.sill * nz.phi / (nz.nugget + nz.sill) if nz.nugget + nz.sill > 0 else 0.0
    # (the degrees of freedom of a variance estimated on n samples of lag-1 correlation rho:
    # n (1 - rho^2) / (1 + rho^2), Bartlett)
    df = nz.n * (1.0 - rho * rho) / (1.0 + rho * rho) - 2.0
    if df < 2.0:
        return None
    thr = t_quantile(thr, df)
    if not (z > thr and depth >= p.depth and (p.log or ref > 0)):
        return None
    return Dip(a, b, ref, level, z)


def _mean(x: np.ndarray) -> float:
    """float(np.mean(x)) of a 1-D float array, the same value (numpy's mean is this sum over the
    count) without its ~6 us of dispatch: a day's 173 drops are tested twice each."""
    return float(x.sum()) / len(x)


def t_quantile(z: float, df: float) -> float:
    """Student's t quantile of df degrees of freedom at the normal quantile z (Cornish-Fisher
    expansion, three terms: within 1 % for df >= 5 at z up to 5, and low below that)."""
    z2 = z * z
    return (
        z
        + z * (z2 + 1.0) / (4.0 * df)
        + z * (5.0 * z2 * z2 + 16.0 * z2 + 3.0) / (96.0 * df * df)
        + z * (3.0 * z2**3 + 19.0 * z2 * z2 + 17.0 * z2 - 15.0) / (384.0 * df**3)
    )
