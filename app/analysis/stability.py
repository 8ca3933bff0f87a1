"""How steady a run's throughput is over its benchmark interval (warm-up excluded): the figures a
write-up quotes next to the mean, for one run and for B against A.

- cv: coefficient of variation (standard deviation / mean) of the per-report throughput;
- under_half: the share of reports below half the median (stalls, whatever their cause); of the
  median of the reports that did any work when the run stood at 0 in half its reports or more
  (`bar`: zero is never the level, as for the drop detector; held-out rebuild-long-hot, a
  metadata lock stalled it at 0 for two thirds of the run, read "0.0 % under half the median 0");
- p1, p5: the 1st and 5th percentiles (the floor a user sees in the worst 1% / 5% of seconds);
- stalls: the stretches of STALL_REPORTS reports or more in a row under half the median, and
  every_s, how often they recur when most gaps between them keep one rhythm (patterns.PATTERN): the one
  finding a long run's stall pattern is ("20 % of the reports under half the median, 240 stalls
  of 8-15 s, every ~60 s"), which the drop detector rightly calls the run's own behaviour when a
  fifth of the run is stalled.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass

import numpy as np

from benchlens.app.analysis.drops import merged_stretches
from benchlens.app.analysis.patterns import PATTERN

# reports in a row under half the median that make a stall: one report alone is a hiccup (a
# report's timing, one slow commit batch), not a stall; chosen by hand, not measured
STALL_REPORTS = 2


@dataclass(frozen=True)
class Stability:
    n: int
    mean: float
    median: float
    cv: float
    under_half: float
    p1: float
    p5: float
    stalls: int = 0
    stall_s: tuple[float, float] = (math.nan, math.nan)  # shortest and longest, s
    every_s: float = math.nan  # their period when most gaps between them keep one rhythm
    bar: float = math.nan  # the median under_half is measured against (the working reports' when the median is 0)

    def under_text(self, number: Callable[[float], str] = lambda x: f"{x:.6g}") -> str:
        """'12.0% of reports under half the median 1,234' ('under half 1,098, the median of the
        reports above 0' when the median is 0), the stall pattern after it."""
        bar = f"the median {number(self.bar)}"
        if self.bar != self.median:
            bar = f"{number(self.bar)}, the median of the reports above 0"
        stalls = f" ({self.stalls_text()})" if self.stalls else ""
        return f"{self.under_half:.1%} of reports under half {bar}{stalls}"

    def stalls_text(self) -> str:
        """'240 stalls of 8–15 s, every ~60 s' ('' without stalls)."""
        if not self.stalls:
            return ""
        s0, s1 = (round(x) for x in self.stall_s)
        lasting = f"{s0} s" if s0 == s1 else f"{s0}\u2013{s1} s"
        text = f"{self.stalls} stall{'s' if self.stalls > 1 else ''} of {lasting}"
        return text + (f", every ~{self.every_s:.0f} s" if math.isfinite(self.every_s) else "")

    def as_json(self) -> dict[str, object]:
        def clean(v: object) -> object:
            if isinstance(v, (tuple, list)):
                return [clean(x) for x in v]
            return v if not isinstance(v, float) or math.isfinite(v) else None

        return {k: clean(v) for k, v in asdict(self).items()}


def stability(t: np.ndarray, v: np.ndarray, lo: float = -math.inf, hi: float = math.inf) -> Stability:
    """Stability of the samples at lo <= t <= hi (NaN gaps left out)."""
    inside = (np.asarray(t) >= lo) & (np.asarray(t) <= hi)
    tt, x = np.asarray(t, np.float64)[inside], np.asarray(v, np.float64)[inside]
    ok = np.isfinite(x)
    tt, x = tt[ok], x[ok]
    if not len(x):
        nan = math.nan
        return Stability(0, nan, nan, nan, nan, nan, nan)
    mean, median = float(np.mean(x)), float(np.median(x))
    cv = float(np.std(x)) / mean if mean > 0 else math.nan
    bar = median if median > 0 or not (x > 0).any() else float(np.median(x[x > 0]))
    under = x < 0.5 * bar
    return Stability(
        len(x),
        mean,
        median,
        cv,
        float(np.mean(under)),
        float(np.percentile(x, 1)),
        float(np.percentile(x, 5)),
        *_stalls(tt, under),
        bar,
    )


def _stalls(t: np.ndarray, under: np.ndarray) -> tuple[int, tuple[float, float], float]:
    """(how many stalls, their shortest and longest, their period when most keep one rhythm)."""
    step = float(np.median(np.diff(t))) if len(t) > 1 else 1.0
    # one report back above half between two under it is still the stall (a stall at 40 % of the
    # median in +-25 % noise crosses half often)
    runs = [(a, b) for a, b in merged_stretches(t, under, 2 * step) if b - a + 1 >= STALL_REPORTS]
    if not runs:
        return 0, (math.nan, math.nan), math.nan
    # each stall covers its reports' intervals: from the report before its first to its last
    starts = np.array([float(t[a]) - step for a, _ in runs])
    lengths = np.array([float(t[b]) for _, b in runs]) - starts
    gaps = np.diff(starts)
    period = float(np.median(gaps)) if len(runs) >= PATTERN.min_count else math.nan
    # a rhythm: the gaps' interquartile range within half the band patterns.PATTERN lets a rhythm
    # drift over (0.6-1.6 of the period: gaps spread evenly across it give 0.45 of the median),
    # where stalls at random give ~1.6 (exponential gaps) and a stall that breaks the rhythm now
    # and then moves it little
    q1, q3 = np.percentile(gaps, [25, 75]) if len(gaps) else (math.nan, math.nan)
    regular = period > 0 and (q3 - q1) / period <= (PATTERN.high - PATTERN.low) / 2
    every = period if regular else math.nan
    return len(runs), (float(lengths.min()), float(lengths.max())), every
