"""Why did throughput drop, or what changed in any window? Rank the run's other series by how
much, and how relevantly, they moved in the window against the run's steady state.

- The reference is the steady state: the samples of the benchmark interval outside every drop and
  the warm-up (`Reference`), not the seconds just before the window, which may already be inside
  the anomaly. Without one, the rest of the series outside the window.
- A rate computed from two snapshots belongs to the interval between them, not to the moment it is
  stamped with: a snapshot taken 0.2 s after a drop ended holds the rate of the 2 s before it, which
  is mostly the drop. So every sample i covers (t[i-1], t[i]], a window's level is the mean of the
  samples weighted by their overlap with it, and reference samples are those whose whole interval
  lies outside the excluded spans. The same for every source.
- Everything that counts work (queries, rows, handler calls, bytes sent) falls with the throughput:
  a series' surprise is the smaller of its shift from the reference and its shift from the
  reference times the throughput's own ratio, in robust sigmas of the reference over the square
  root of the samples the window holds (its level is their mean; capped: beyond
  `effect_cap` sigmas the change is certain and only its importance should decide).
- It ranks by surprise x importance (app/analysis/relevance.py: CPU points, %util points, share of
  the total wait time, bytes against the rest of the run); high-water marks, monotone counters
  stored as values and idle waits are never evidence.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TypeVar

import numpy as np

from benchlens.app.analysis.causes import IDLE_EACH, IDLE_TIME
from benchlens.app.analysis.drops import MAD_TO_SIGMA, Drop
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.innodb import MAX_AGE
from benchlens.app.analysis.quantities import quantity as quantity  # re-exported: callers import it here
from benchlens.app.analysis.relevance import RELEVANCE, RelevanceParams, class_of, importance, is_evidence
from benchlens.app.analysis.shifts import Variogram
from benchlens.app.analysis.verdict import classes as classes  # re-exported: callers import them here
from benchlens.app.analysis.verdict import verdict as verdict
from benchlens.app.model import SeriesRef

# A server's limits a verdict compares levels with (InnoDB's max checkpoint age: the sync flush
# point of MariaDB and XtraDB), and the sessions' idle time between statements: measured with the
# other series for the verdict's levels, never ranked (a high-water setting and an idle wait are
# not evidence, app/analysis/relevance.py is_evidence)
LIMITS = frozenset({MAX_AGE, IDLE_TIME, IDLE_EACH})


@dataclass(frozen=True)
class ExplainParams:
    # reference samples needed to measure a change; chosen by hand, not measured
    min_before: int = 3
    # floor on a series' reference spread, as a fraction of its level; chosen by hand, not measured
    level_floor: float = 0.05
    # robust sigmas (of the window's mean) beyond which a change is certain: the rank is then
    # decided by importance (a series flat at 0 that moves at all is "infinitely" surprising); on
    # tests/fixtures/diagnosis a CPU hog's +18 system CPU points measure 8 sigmas, merged disk
    # writes going 0.3 -> 20% some 160: both are certain, CPU matters more
    effect_cap: float = 5.0
    # the last floor: a series constant over the whole run still divides by no zero
    min_spread: float = 1e-6
    # percentile of |value| outside the window taken as what the series does elsewhere
    elsewhere_percentile: float = 99.0
    # reference samples a series' steady state is measured on, evenly spread (0: all): 1,000
    # series of a day at 1 s are explained in the time 86 million medians would take otherwise
    max_reference: int = 2048
    # a gap between samples longer than this many sample steps starts a new interval (a sample
    # after a gap covers one step, not the gap); chosen by hand, not measured
    gap_steps: float = 3.0


EXPLAIN = ExplainParams()
# steady samples a series' noise over stretches is measured on, at least (a variogram's lags up
# to half of them); chosen by hand, not measured
STRETCH_SAMPLES = 16
_T = TypeVar("_T")


@dataclass(frozen=True)
class Reference:
    """The steady state a window is compared with: samples within lo..hi (epoch s) whose interval
    overlaps none of `exclude`; `work` is the throughput in the window over the steady throughput."""

    lo: float
    hi: float
    exclude: tuple[tuple[float, float], ...] = ()
    work: float = 1.0

    @cached_property
    def spans(self) -> tuple[np.ndarray, np.ndarray]:
        """The excluded spans' starts (ascending) and the latest end of any span so far."""
        spans = np.array(sorted(self.exclude), np.float64).reshape(-1, 2)
        return spans[:, 0], np.maximum.accumulate(spans[:, 1]) if len(spans) else spans[:, 1]


def _step(t: np.ndarray) -> float:
    """The usual interval between samples (from the first ones: a median of a day of diffs would
    cost more than the whole explanation of a series)."""
    d = np.diff(t[:1001])
    step = float(np.median(d)) if len(d) else 1.0
    return step if step > 0 else 1.0


def intervals(
    t: np.ndarray, idx: np.ndarray | None = None, gap_steps: float = EXPLAIN.gap_steps, step: float = 0.0
) -> tuple[np.ndarray, np.ndarray]:
    """(lo, hi) of the interval each sample (or each sample of idx) covers: from the previous
    sample to its own time; after a gap, one usual step (`step`, 0: measured on t)."""
    if idx is None:
        idx = np.arange(len(t))
    if not len(idx):
        return np.zeros(0), np.zeros(0)
    step = step or _step(t)
    hi = t[idx]
    lo = np.where(idx > 0, t[np.maximum(idx - 1, 0)], hi - step)
    gap = (hi - lo) > gap_steps * step
    lo[gap] = hi[gap] - step
    return lo, hi


def window_level(t: np.ndarray, v: np.ndarray, start: float, end: float) -> float:
    """Mean of v over start..end, each sample weighted by its interval's overlap with it (NaN if
    no sample covers any of it)."""
    return _weighted(v, *_window_weights(t, start, end))[0]


def _window_weights(t: np.ndarray, start: float, end: float, step: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(samples, their interval's overlap with start..end as a fraction of the interval)."""
    # the samples stamped after start, up to the first one stamped at or after end
    a, b = int(np.searchsorted(t, start, "right")), int(np.searchsorted(t, end, "left")) + 1
    idx = np.arange(a, min(b, len(t)))
    lo, hi = intervals(t, idx, step=step)
    w = np.clip(np.minimum(hi, end) - np.maximum(lo, start), 0.0, None) / np.maximum(hi - lo, 1e-12)
    return idx, w


def _weighted(v: np.ndarray, idx: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(overlap-weighted mean of v's samples idx, samples' worth of overlap)."""
    x = v[idx]
    ok = np.isfinite(x) & (w > 0)
    if not ok.any():
        return float("nan"), 0.0
    n = float(np.sum(w[ok]))
    return float(np.sum(w[ok] * x[ok]) / n), n


def reference_index(t: np.ndarray, ref: Reference, most: int = 0, step: float = 0.0) -> np.ndarray:
    """The samples whose interval lies within the reference span and outside every excluded one;
    at most `most` of them (0: all), evenly spread over the span."""
    a, b = int(np.searchsorted(t, ref.lo, "left")), int(np.searchsorted(t, ref.hi, "right"))
    # evenly spaced when thinned, at least one apart: no index twice
    idx = np.linspace(a, b - 1, most).astype(np.int64) if most and b - a > most else np.arange(a, b)
    lo, hi = intervals(t, idx, step=step)
    keep = (lo >= ref.lo) & (hi <= ref.hi)
    if ref.exclude:
        starts, ends = ref.spans
        k = np.searchsorted(starts, hi, "left") - 1  # the last span starting before hi
        keep &= ~((k >= 0) & (ends[np.maximum(k, 0)] > lo))
    return idx[keep]


def reference_values(v: np.ndarray, t: np.ndarray, ref: Reference, most: int = 0, step: float = 0.0) -> np.ndarray:
    """The finite values of the samples whose interval lies within the reference span and outside
    every excluded one; at most `most` of them (0: all), evenly spread over the span (the steady
    state of a day at 1 s is as well known from 2,048 of its seconds)."""
    x = v[reference_index(t, ref, most, step)]
    return x[np.isfinite(x)]


@dataclass(frozen=True)
class _Axis:
    """What a series' time stamps decide, the same for every series sampled at those times: the
    reference samples and the window's samples with their weights."""

    t: np.ndarray
    reference: np.ndarray
    window: tuple[np.ndarray, np.ndarray]


class _Axes:
    """Time axes met in one explanation: series of one source share their time stamps, and the
    searches, intervals and weights are made once for all of them."""

    def __init__(self, span: Drop, reference: Reference, params: ExplainParams) -> None:
        self.span, self.ref, self.params = span, reference, params
        self.seen: list[_Axis] = []

    def of(self, t: np.ndarray) -> _Axis:
        for ax in self.seen:
            if ax.t is t or (len(ax.t) == len(t) and np.array_equal(ax.t, t)):
                return ax
        step = _step(t)
        idx = reference_index(t, self.ref, self.params.max_reference, step)
        ax = _Axis(t, idx, _window_weights(t, self.span.start, self.span.end, step))
        self.seen.append(ax)
        return ax


@dataclass(frozen=True)
class _Measured:
    ref: SeriesRef
    before: float
    during: float
    raw: float
    surprise: float
    elsewhere: float


@dataclass(frozen=True)
class _Sampled:
    """A series' reference values (finite) and its window level over n samples' worth."""

    ref: SeriesRef
    base: np.ndarray
    during: float
    n: float


def _statistics(bases: list[np.ndarray], pct: float) -> list[tuple[float, float, float]]:
    """(median, median absolute deviation, pct-th percentile of |value|) of each base: the very
    numbers np.median and np.percentile give, from one sort of all bases of one length at once
    (three selections per series were most of the time of an explanation)."""
    out: list[tuple[float, float, float]] = [(0.0, 0.0, 0.0)] * len(bases)
    by_len: dict[int, list[int]] = {}
    for k, b in enumerate(bases):
        by_len.setdefault(len(b), []).append(k)
    for rows in by_len.values():
        m = np.stack([bases[k] for k in rows])
        s = np.sort(m, axis=1)
        n, h = s.shape[1], s.shape[1] // 2
        med = (s[:, h - 1] + s[:, h]) / 2.0 if n % 2 == 0 else s[:, h]
        mad = (
            (_kth_deviation(s, med, h) + _kth_deviation(s, med, h + 1)) / 2.0
            if n % 2 == 0
            else _kth_deviation(s, med, h + 1)
        )
        high = _percentile_sorted(s, pct)
        neg = s[:, 0] < 0  # |value| is not in the sorted order: np.percentile itself
        if neg.any():
            high[neg] = np.percentile(np.abs(m[neg]), pct, axis=1)
        for j, k in enumerate(rows):
            out[k] = (float(med[j]), float(mad[j]), float(high[j]))
    return out


def _kth_deviation(s: np.ndarray, med: np.ndarray, k: int) -> np.ndarray:
    """The k-th smallest |s - med| of each sorted row: the k closest values are k neighbours in the
    sorted row, and the k-th distance is the least, over every k-wide run, of its farther end."""
    n = s.shape[1]
    return np.asarray(np.maximum(med[:, None] - s[:, : n - k + 1], s[:, k - 1 :] - med[:, None]).min(axis=1))


def _percentile_sorted(s: np.ndarray, pct: float) -> np.ndarray:
    """np.percentile's linear interpolation (its own arithmetic) on sorted rows."""
    n = s.shape[1]
    virtual = (n - 1) * float(np.true_divide(pct, 100))
    lo = int(np.floor(virtual))
    gamma = virtual - lo
    a, b = s[:, lo], s[:, min(lo + 1, n - 1)]
    diff = b - a
    return np.asarray(b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma)


def _measured(sampled: list[_Sampled], reference: Reference, params: ExplainParams) -> list[_Measured]:
    """Each series' shift from the reference in robust sigmas of the window's mean."""
    out = []
    for s, (b, mad_raw, elsewhere) in zip(
        sampled, _statistics([s.base for s in sampled], params.elsewhere_percentile), strict=True
    ):
        # the window's level is a mean of n samples: its noise is the samples' spread over sqrt(n)
        mad = mad_raw * MAD_TO_SIGMA / np.sqrt(max(s.n, 1.0))
        if b == 0 and mad == 0 and np.any(s.base != 0):
            b, mad = _intermittent(s.base, s.n)
        scale = max(mad, params.level_floor * abs(b), params.min_spread)
        raw = (s.during - b) / scale
        if scale == params.min_spread and s.during != b:
            # flat in the steady state (at 0, or with no level floor): no spread to count the
            # shift in (a floor of 1e-6 made 0 -> 1.5 an effect of 1,500,000); it is infinite,
            # and said in the units
            raw = math.copysign(math.inf, s.during - b)
        with_work = (s.during - b * reference.work) / scale  # the series had it scaled with the throughput
        surprise = min(abs(raw), abs(with_work), params.effect_cap)
        out.append(_Measured(s.ref, b, s.during, raw, surprise, elsewhere))
    return out


def _intermittent(base: np.ndarray, n: float) -> tuple[float, float]:
    """The level and noise of a reference at 0 more than half the time but not always (pages flushed
    in bursts every few samples, a lock wait now and then): its mean and its standard deviation over
    sqrt(n), the window's level being a mean of n samples. Its median and median deviation, both 0,
    would call it flat and any window with one burst in it a change "from a flat level" (DBPA's
    dool pages flushed, 0 -> 87.5 /s over a window that flushed as often as the rest)."""
    return float(np.mean(base)), float(np.std(base)) / math.sqrt(max(n, 1.0))


def _sample(ref: SeriesRef, v: np.ndarray, ax: _Axis, params: ExplainParams) -> _Sampled | None:
    base = v[ax.reference]
    base = base[np.isfinite(base)]
    if len(base) < params.min_before:
        return None
    d, n = _weighted(v, *ax.window)
    return _Sampled(ref, base, d, n) if np.isfinite(d) else None


def measure(
    t: np.ndarray, v: np.ndarray, span: Drop, reference: Reference, params: ExplainParams = EXPLAIN
) -> _Measured | None:
    """One series' change in span against the reference."""
    s = _sample(SeriesRef("", ""), v, _Axes(span, reference, params).of(t), params)
    return _measured([s], reference, params)[0] if s is not None else None


class Explanation(list[Change]):
    """The `top` changes of an explanation, ranked (a list of Change, as it always was), and the
    level of every series measured (`levels`, by series: before, during, class, weight), which a
    verdict reads for what did not rank (InnoDB's own writes while a disk got busy, the checkpoint
    age against its limits); `late`: the classes of causes whose series moved only after the drop
    began (run_drops: a purge lag's history list must be long before the throughput falls), which
    the verdict passes over."""

    def __init__(
        self,
        top: list[Change],
        levels: dict[SeriesRef, Change] | None = None,
        noise: Callable[[SeriesRef], float] | None = None,
    ) -> None:
        super().__init__(top)
        self.levels: dict[SeriesRef, Change] = levels or {}
        self.late: frozenset[str] = frozenset()
        # a series' own noise at the window's length (_StretchNoise), asked by the causes that
        # compare a change with it
        self.noise = noise


def explain(
    span: Drop,
    refs: Iterable[SeriesRef],
    load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    top: int = 5,
    params: ExplainParams = EXPLAIN,
    reference: Reference | None = None,
    relevance: RelevanceParams = RELEVANCE,
) -> Explanation:
    """The `top` quantities that changed most relevantly in span.start..span.end against the
    reference (default: the rest of each series, scaled with the span's throughput 1 - depth),
    each with the other series that showed the same quantity."""
    ref_span = reference or Reference(-np.inf, np.inf, ((span.start, span.end),), 1.0 - span.depth)
    axes = _Axes(span, ref_span, params)
    sampled = []
    limits: set[SeriesRef] = set()
    noise = _StretchNoise(ref_span)
    for ref in refs:
        if ref in LIMITS:
            limits.add(ref)  # measured for the verdict, never ranked
        elif not is_evidence(ref):
            continue
        data = load(ref)
        if data is None:
            continue
        t, v = np.asarray(data[0], np.float64), np.asarray(data[1], np.float64)
        if _monotone_value(ref, v):
            continue
        s = _sample(ref, v, axes.of(t), params)
        if s is not None:
            sampled.append(s)
            noise.add(ref, t, v, s.n)
    measured = _measured(sampled, ref_span, params)
    ranked = _ranked([m for m in measured if not np.isnan(m.raw) and m.raw != 0 and m.ref not in limits], relevance)
    levels = {m.ref: Change(m.ref, m.raw, m.before, m.during, klass=class_of(m.ref)) for m in measured}
    levels.update((c.ref, c) for c in ranked)
    return Explanation(_one_per_quantity(ranked, top), levels, noise)


class _StretchNoise:
    """The standard error of a series' level over a stretch as long as the window, against its
    steady level, measured on the run's own steady samples (every one of them, in their order):
    shifts.Variogram's contrast of a stretch of the window's samples with the rest, which counts
    how the series wanders over stretches of that length (a CPU share that swings 18 points over
    tens of seconds) where the window's robust sigmas (_measured: the samples' spread over the
    square root of their number) take every sample as independent. The variogram of the lagged
    differences' trimmed variance, not of their median deviation: the I/O wait's bursts of fsyncs
    are a minority of the samples and most of how a window's mean varies (bench/rules_null.py: 519
    null stretches pass IOWAIT_RATIO and the certainty 35 times with it, 90 with the median's). Its
    cost: steady samples that still hold the rest of the disturbance the window is in read as
    wander (DBPA missing_indexes case-003, a 20-s drop inside its 60-s anomaly, 23 samples of 5 s:
    user CPU 0.5 -> 10.8 % is 1.8 standard errors, and no second series confirms the drop). On
    AR(1) noise (phi 0-0.9, 12-128 steady samples, windows of a tenth to a quarter of them) a
    window passes 5 standard errors by chance at most 0.5 % of the time. Measured when a cause
    asks, once per series: a variogram costs what a thousand medians do."""

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self.series: dict[SeriesRef, tuple[np.ndarray, np.ndarray, float]] = {}
        self.seen: dict[SeriesRef, float] = {}
        # the steady samples of each time axis (the series of one source share theirs, as _Axes
        # finds once for all of them), by the axis' identity: self.series holds the axes alive
        self.steady: dict[int, np.ndarray] = {}

    def add(self, ref: SeriesRef, t: np.ndarray, v: np.ndarray, n: float) -> None:
        self.series[ref] = (t, v, n)

    def __call__(self, ref: SeriesRef) -> float:
        """The standard error, in the series' units; NaN when too few steady samples tell it."""
        if ref not in self.seen:
            self.seen[ref] = self._measure(ref)
        return self.seen[ref]

    def _measure(self, ref: SeriesRef) -> float:
        if ref not in self.series:
            return math.nan
        t, v, n = self.series[ref]
        if id(t) not in self.steady:
            self.steady[id(t)] = reference_index(t, self.reference, 0, _step(t))
        x = v[self.steady[id(t)]]
        x = x[np.isfinite(x)]
        if len(x) < STRETCH_SAMPLES:
            return math.nan
        length = max(1, round(n))
        return float(Variogram(x).contrast_se(length, np.array([float(len(x))]))[0])


def _monotone_value(ref: SeriesRef, v: np.ndarray) -> bool:
    """A counter stored as a value (never falls, always grows): a clock, not evidence."""
    if ref.format != "global_status" or ref.metric.endswith("/s"):
        return False
    finite = v[np.isfinite(v)]
    return len(finite) >= 10 and bool(np.all(np.diff(finite) >= 0)) and finite[-1] > finite[0]


def _ranked(measured: list[_Measured], relevance: RelevanceParams) -> list[Change]:
    out: list[tuple[Change, float]] = []
    waits = [m for m in measured if m.ref.format == "perfschema" and m.ref.metric == "SUM_TIMER_WAIT"]
    wait_total = max(sum(m.before for m in waits), sum(m.during for m in waits), 0.0)
    wait_delta = {m.ref.entity: m.during - m.before for m in waits}
    for m in measured:
        imp, strength = importance(
            m.ref, m.during - m.before, m.elsewhere, wait_total, wait_delta.get(m.ref.entity), relevance
        )
        c = Change(m.ref, m.raw, m.before, m.during, m.surprise * imp, klass=class_of(m.ref), importance=imp)
        out.append((c, strength))
    # equal weights (certain changes of fully important quantities) go by their absolute strength
    out.sort(key=lambda cs: (-cs[0].weight, -cs[1]))
    return [c for c, _ in out]


def by_quantity(items: Iterable[_T], ref: Callable[[_T], SeriesRef]) -> list[tuple[_T, list[SeriesRef]]]:
    """One row per quantity (`quantity`), in the items' order: the first item of each, with the
    other series that measured the same quantity."""
    rows: dict[str, tuple[_T, list[SeriesRef]]] = {}
    for item in items:
        key = quantity(ref(item))
        if key in rows:
            rows[key][1].append(ref(item))
        else:
            rows[key] = (item, [])
    return list(rows.values())


def _one_per_quantity(ranked: list[Change], top: int) -> list[Change]:
    return [replace(c, similar=(*c.similar, *also)) for c, also in by_quantity(ranked, lambda c: c.ref)[:top]]
