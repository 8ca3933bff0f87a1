"""Throughput drops: where a series falls below its run's steady state, and latency rises.

The steady state is the run's own robust level with its drops and warm-up left out, so a drop as
long as half the run, or one that lasts to the end of the benchmark, stays below it:

1. Bursty series (per-second commit counts of a TPC-C run swing by half their level from one
   second to the next) are judged on a short centred moving average; smooth ones as they are.
2. The warm-up is what comes before the series first reaches (1 - depth) of its upper level,
   and, for a series that starts above its steady level, until it has come down to it.
3. A first, global pass: the median level of the rest, recomputed without the samples below
   (1 - depth) of it, marks the stretches far below the run's level.
4. The baseline is then the rolling median (`baseline_s` seconds) of the samples outside those
   stretches, interpolated across them: a slow trend or a level step between configurations moves
   it, a drop does not.
5. A drop is a stretch below baseline - margin lasting at least `min_s` seconds (margin: depth x
   baseline and z robust sigmas of the noise, never more than `max_gate` x baseline, so a complete
   stall is always found); stretches close together are one drop (fragments merged), its edges are
   moved to where the raw series crosses the level, its depth is never negative. A stretch that
   only covers the benchmark's last seconds is its own ramp-down, not a drop.

6. A series long enough to measure its noise apart from its drops (TESTABLE samples, 10 minutes
   at 1 s) keeps only the drops that are significant (issue #23): each candidate's mean against the
   means just before and after it, in standard errors of the noise of the rest of the series
   (a variogram, app/analysis/shifts.py), above a multiscale penalty set for at most one false
   drop per 10,000 s on noise alone, and at least `floor` below; the scan of shifts.py adds the
   long shallow drops the thresholds above miss. bench/detection_calibration.py measures both
   regimes (README "How sure a drop is"). A shorter series (most recorded benchmark runs, 75-160
   s) cannot have its noise measured apart from its drops: each candidate of 1-5 is tested
   against the rest of its steady part at critical values simulated for every noise the
   calibration covers (app/analysis/level_test.py), at the series' alpha / its `selection` (the whole
   procedure's null rate, bench/procedure_calibration.py); one that fails, and is not proven either
   against each side's own level (a drop between two levels, the run back above its level after
   it: level_test.between, a last look at a smaller alpha), is marked untested, for run_drops to
   keep only when another series confirms it (app/analysis/confirm.py).

Upward excursions are never drops. Step loads are cut into steps first (`segments`), each with its
own steady state. Latency rises (`rises`) are found the same way, upwards: a latency at `factor`
times its steady level or more. The tuning numbers are the fields of `Sensitivity` (the user's
choice, three presets) and `DetectParams` (the detector's own), each with how it was chosen.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from benchlens.app.analysis import level_test, shifts

# 1 / (the 75th percentile of the standard normal): the median absolute deviation of normally
# distributed data times this is its standard deviation (the usual consistency constant)
MAD_TO_SIGMA = 1.4826
# 1 / (the 75th percentile of |x| for x standard normal): the 75th percentile of absolute values of
# normally distributed data times this is its standard deviation
P75_TO_SIGMA = 1.0 / 1.1503


@dataclass(frozen=True)
class Sensitivity:
    """A drop is deeper than `depth` x baseline AND than `z` robust sigmas of the series' own noise
    around its baseline, for at least `min_s` seconds; on a series long enough to test (TESTABLE),
    also significant at the multiscale penalty plus `offset` and at least `floor` deep."""

    depth: float
    min_s: float
    z: float
    # the scan's size floor: a drop it finds is at least this fraction below its reference
    floor: float = 0.15
    # the scan's offset to its multiscale penalty (shifts.py): sets the false-alarm rate
    offset: float = 0.0
    # a short series' test (level_test.py): this many false drops per 10,000 s on noise alone
    alarms: float = 1.0
    # ... at the series' alpha (alarms' share) / this, the first look's (calibrated: above SENSITIVITY)
    selection: float = 2.0


# Measured on real sysbench runs of this machine (TPS noise 13-22% of its level): z = 2 flags no
# stretch of an undisturbed run and finds 40-55% dips of 4 s and more. On the recorded corpus
# (bench/drop_quality/README.md) low and normal score F1 1.0; high finds every disturbance but also
# 9 dips of the undisturbed runs.
# On series long enough to test, `offset` sets the false-alarm rate: normal's 0 gives at most ~1-2
# false drops per 10,000 s on every null series of bench/detection_calibration.py (300 s to 24 h);
# low (+1) fewer, high (-1) more, measured there too.
# the first look of a short series (its candidates' step-down, the strongest stretch in place of
# candidates below even odds) is tested at the series' alpha / `selection`. The critical values are
# the maximum's over every interval of noise as drawn; on the noise they are worst for (AR(1) phi
# 0.9 at CV 1) the maximum itself passes them a third more often than alpha, 1.33 per 10,000 s
# over 120 s: the tables' own sampling (at 128 samples and alpha 0.01, where no interpolation
# enters, 7.73 is passed by 1.22 % of 20,000 fresh draws) and their interpolation; the samples
# the first look tests (the warm-up and ramp-down cut, the catch-up capped: first_look) add a little
# (1.45). bench/procedure_calibration.py --first-look, that maximum on the null noises (every
# noise but AR(1) phi 0.9 at 0), phi 0.9 at CV 1, two seeds, 2,000-10,000 draws a cell: at
# alpha / 1, 1.00-1.52 false drops per 10,000 s; at / 1.5, 0.76-1.19; at / 2, 0.60-1.10 (the 26
# 5-s means, 23 of 1,615 draws: +-0.23). The whole procedure (its other looks included) at / 2:
# every cell at most 0.95 per 10,000 s, where it was at 1.33 (bench/detection_calibration.md, top
# section). At high's ten a 10,000 s the tables are less liberal: --first-look --sensitivity high,
# 60,000 s a cell, at / 1 up to 12.5, at / 1.25 up to 10.2 (26 5-s means of phi 0.9 at CV 1,
# +-1.3), at / 1.5 up to 8.7. Low's 0.1 is too rare to measure in hours of draws: normal's kept
SENSITIVITY = {
    "low": Sensitivity(0.45, 5.0, 3.0, floor=0.3, offset=1.0, alarms=0.1),
    "normal": Sensitivity(0.30, 3.0, 2.0),
    "high": Sensitivity(0.20, 2.0, 1.5, floor=0.1, offset=-1.0, alarms=10.0, selection=1.25),
}


@dataclass(frozen=True)
class DetectParams:
    # seconds of the rolling-median baseline over the steady samples
    baseline_s: float = 120.0
    # samples: the narrowest baseline window, the smallest median that ignores one outlying sample
    min_window: int = 3
    # the rolling median runs over medians of blocks, this many blocks to a window; chosen by hand
    # for speed, not measured for accuracy (with it, 86,400 points took ~55 ms: commit 13c65a6)
    blocks_per_window: int = 24
    # samples: a segment (load step) with fewer is not searched; chosen by hand, not measured
    min_samples: int = 5
    # samples above the depth threshold needed to measure the noise away from the candidate drops
    # (with fewer, all samples are used); chosen by hand, not measured
    min_calm: int = 5
    # seconds: stretches below the threshold this close (plus one sample interval) are one drop,
    # e.g. a stall with one sample back up; chosen by hand, not measured
    merge_s: float = 2.0
    # ... and so are two stretches whose gap is at most this fraction of the shorter one: a long
    # stall of a bursty series comes out in fragments otherwise; chosen by hand, not measured
    merge_fraction: float = 0.5
    # hysteresis: a drop's edges extend while samples stay below this fraction of the margin;
    # chosen by hand, not measured
    soft: float = 0.8
    # relative noise (sigma of the sample-to-sample differences / sqrt 2, over the level) above
    # which a series is bursty and judged on its moving average: the recorded sysbench runs of
    # bench/drop_quality are at 0.05-0.15, per-second TPC-C commit counts at 0.3 and more. The
    # sigma comes from the 75th percentile of the absolute steps (P75_TO_SIGMA), not their median:
    # a workload that collapses for single seconds (the churn runs: deadlock storms, 650 -> 100
    # tps and back) is as noisy as its collapses, which the median step ignores (its quiet run
    # gave three drops of 3-6 s from clusters of them); the same threshold for normal noise
    bursty_noise: float = 0.2
    # samples of that moving average (odd); 5 halves a bursty series' noise and keeps a 3 s stall
    # at 40% of its level or less; chosen by hand, not measured
    smooth_samples: int = 5
    # the margin never exceeds this fraction of the baseline: a noise gate wider than the level
    # itself would hide a complete stall of a bursty series
    max_gate: float = 0.6
    # percentile of the series taken as its upper level, the warm-up ends when the series first
    # reaches (1 - depth) of it; chosen by hand, not measured
    level_percentile: float = 75.0
    # samples of the centred median that tells a start above the steady level has come down to it
    # (a warm-up from above: the bursty table of bench/drop_quality goes 430 -> 250 tps in 25 s);
    # chosen by hand, not measured
    settle_samples: int = 11
    # seconds of steady samples before a drop that lasts to the series' end, the least that is a
    # level for it to be a drop from: the warm-up's median window at 1 s (settle_samples); a start
    # above the level shorter than half of it is not cut, and a warm-up cut where it came within
    # (1 + depth) of the level may still be coming down (bench/detection_calibration.md, session 30)
    level_s: float = 11.0
    # a sample at or below this fraction of the baseline is a stall (a complete stall: 0 commits)
    stall: float = 0.1
    # samples: only stretches this long far below the run's level are left out of its steady
    # state; single low samples are its noise, and leaving them out would lift the baseline
    # (a quiet run of bench/drop_quality then showed a -30% dip)
    min_excluded: int = 3
    # seconds: a stretch that ends with the series and is no longer is the benchmark's own
    # ramp-down (threads finishing, a partial last report), not a drop: the recorded
    # tests/fixtures/diagnosis run's last 4 reports are at -40% with nothing injected
    ramp_down_s: float = 5.0
    # the second pass for long shallow drops: a moving average of this many samples (odd), below
    # the baseline by this fraction of the sensitivity's depth, for this many seconds. A -29 %
    # drop of 12 s on a bursty run swinging +-15 % (two disk writers) was missed; chosen on the
    # recorded corpus (bench/drop_quality/README.md), whose quiet runs give no such stretch
    sustained_samples: int = 9
    sustained_depth: float = 2.0 / 3.0
    sustained_s: float = 8.0
    # seconds each side of a drop needs to be split into two levels (_levels)
    split_s: float = 5.0
    # a latency level the series keeps to its end (_shifted_tail): at least this many samples, its
    # change point searched in the last `tail_share` of the series (then moved back to where the
    # level was left), a Pettitt test p-value below `tail_p`; a disk burst to
    # the end of a bursty run put its latency at x2.3 for its last 37 s, and the rolling baseline
    # followed it (tests/fixtures/diagnosis/bursty_long_drops); chosen by hand, not measured
    tail_samples: int = 8
    tail_share: float = 0.5
    tail_p: float = 0.001


DETECT = DetectParams()

# samples after the warm-up from which a series' noise can be measured apart from its drops, and
# every finding must be significant (shifts.significance); a shorter series' candidates are tested
# by level_test (bench/detection_calibration.md: below this the noise of a run and its drops cannot
# be told apart, 23-160 samples of the recorded and DBPA runs; at 300-600 samples the variogram's
# test gave 1-2.5 false drops per 10,000 s, level_test, calibrated up to 600, none)
TESTABLE = 600
NOT_TESTED = (
    "not significant on its own (too few samples to tell it from the series' noise: "
    "app/analysis/level_test.py); kept because another series confirms it: its latency rose "
    "significantly, or its cause's series moved over it beyond chance (app/analysis/confirm.py)"
)
# a candidate shorter than 1 / SHARED_NOISE of a long series is tested against the whole series'
# noise, measured once (leaving each out changes it by less than its own estimate's spread)
SHARED_NOISE = 50
# samples: a longer stretch's median is one partition's (shifts.middle), which beats a sort from ~5,000 on
SHORT_MEDIAN = 4_000
# robust sigmas above its upper quartile where a short series' upward excursion is cut before its test
CAP_SIGMAS = 4.0
# seconds: the shortest drop the scan looks for beside the candidates
SCAN_MIN_S = 8.0
# the strongest stretch in place of candidates of the thresholds above even odds but unproven
# (_fragments_joined: a second look beside the first) is tested at the series' alpha / this.
# bench/procedure_calibration.py, the same draws, the first look at alpha / 2 (normal's): at 4,
# every null cell at most 0.95 per 10,000 s, a drop that deepens halfway (-22 % 15 s, -36 % 25 s)
# found 47 of 60 (7 without the look); at the first look's 2 (the stretch's T is the first look's
# maximum), 1.10 and 55 of 60, and held-out dool-restore-long-hot's drop began at the stretch's
# edge, 3.9 s before its restore, where the candidate's was +0.1 s (its selects fell 14 % 4.9 s
# before the restore's bytes came)
JOINED_SHARE = 4.0
# a candidate every other test left unproven is tested against each side's level at the series'
# alpha / this (_between_levels: a last look). bench/procedure_calibration.py, the same draws
# (session 20): at 8, the null cells +0-1 false drops in ~210,000 s each (the worst, phi 0.9 CV 1
# over 60 s, 1.10 -> 1.14 per 10,000 s), a drop between two levels (-33 % 12 s, the run back 8 %
# above) found 25 -> 49 of 60; at 4, +0-3 (1.24) and 53 of 60
BETWEEN_SHARE = 8.0


@dataclass(frozen=True)
class Drop:
    start: float  # epoch s: beginning of the first sample interval below the threshold
    end: float  # epoch s: time of the last sample below it
    depth: float  # 1 - median during / baseline, >= 0 (latency: median during / baseline - 1)
    baseline: float
    min: float  # lowest sample (latency: highest)
    score: float  # depth x duration: throughput-seconds lost, as a fraction of the baseline
    kind: str = "drop"  # "drop" (throughput fell) or "latency" (latency rose)
    # found significant by the test of its series (shifts.py on a series of TESTABLE samples or
    # more, level_test.py on a shorter one); False: the thresholds found it but its series alone
    # does not tell it from noise (run_drops keeps it only when another series confirms it)
    tested: bool = True
    # of one not tested: the false-alarm probability at which its cause's key series must confirm
    # it over the same interval (app/analysis/confirm.py), 0 when its own series does not even put
    # it above chance at even odds (then only a significant latency rise keeps it)
    confirm_alpha: float = 0.0
    # its own series' p-value (level_test.p_value, on the series without its other candidates): the
    # second series' test is combined with it (level_test.combined), 1 where it was not measured
    own_p: float = 1.0
    # the depths of the levels it went through, in order, when it was joined from drops at
    # different levels with no sample back at the baseline between them (run_drops._phases_joined)
    levels: tuple[float, ...] = ()

    @property
    def duration(self) -> float:
        return self.end - self.start

    def label(self) -> str:
        if self.kind == "latency":
            return f"latency \u00d7{1 + self.depth:.1f} \u00b7 {self.duration:.0f} s"
        depths = self.levels or (self.depth,)
        said = " \u2192 ".join(f"\u2212{d * 100:.0f}%" for d in depths)
        return f"{said} \u00b7 {self.duration:.0f} s"

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "start": self.start,
            "end": self.end,
            "depth": self.depth,
            "baseline": self.baseline,
            "min": self.min,
            "score": self.score,
            "tested": self.tested,
        }

    def untested(self) -> str:
        """What a reader must know of a drop found without the test ('' when it was tested)."""
        return "" if self.tested else NOT_TESTED


@dataclass(frozen=True)
class Steady:
    """A series' steady state: its baseline at every sample and where its warm-up ends."""

    base: np.ndarray
    warm: int  # index of the first sample after the warm-up
    smooth: int  # samples of the moving average the series is judged on (1: as it is)


def baseline(t: np.ndarray, v: np.ndarray, params: DetectParams = DETECT) -> np.ndarray:
    """Rolling median of v over params.baseline_s seconds centred on each sample (NaN-robust)."""
    n = len(v)
    if n == 0:
        return v.copy()
    step = sample_step(t)
    width = max(params.min_window, round(params.baseline_s / step))
    block = max(1, width // params.blocks_per_window)
    coarse = _block_medians(v, block)
    nb = len(coarse)
    k = min(max(1, width // block) | 1, nb if nb % 2 else nb - 1)  # odd number of blocks
    rolled = _rolling_median(coarse, k)
    centers = np.arange(nb) * block + (block - 1) / 2.0
    ok = np.isfinite(rolled)
    if not ok.any():
        return np.full(n, np.nan)
    return np.interp(np.arange(n), centers[ok], rolled[ok])


def sample_step(t: np.ndarray) -> float:
    """The series' sampling interval: the median of its time steps (1 with fewer than two samples);
    of even steps, the step (their median, without its partition of a day's 86,400)."""
    if len(t) <= 1:
        return 1.0
    d = np.diff(t)
    step = float(d[0]) if (d == d[0]).all() else float(np.median(d))
    return step if step > 0 else 1.0


def _block_medians(v: np.ndarray, block: int) -> np.ndarray:
    """The median of each block of `block` samples (the last one may be shorter)."""
    nb = -(-len(v) // block)
    padded = np.full(nb * block, np.nan)
    padded[: len(v)] = v
    return row_medians(padded.reshape(nb, block))


def row_medians(a: np.ndarray) -> np.ndarray:
    """np.nanmedian(a, axis=1), the same values, fast: rows without NaN take their middle order
    statistics (for short rows numpy's nanmedian goes through masked arrays, ~20x slower)."""
    out = np.empty(len(a))
    bad = np.isnan(a).any(axis=1)
    if not bad.any():
        return shifts.middle(a)
    if (~bad).any():
        out[~bad] = shifts.middle(a[~bad])
    with warnings.catch_warnings():  # a row of no sample's median is NaN, as it should be
        warnings.simplefilter("ignore", RuntimeWarning)
        out[bad] = np.nanmedian(a[bad], axis=1)
    return out


def nan_median(x: np.ndarray) -> float:
    """float(np.nanmedian(x)) of a 1-D x, the same value (NaN when no sample is finite, without
    numpy's warning), fast for the short stretches of a drop: numpy's nanmedian costs ~40 us a call
    in overhead, and a day's 173 drops called it 2,600 times a detection (a tenth of its time)."""
    f = x[~np.isnan(x)]
    m = len(f)
    if not m:
        return math.nan
    if m > SHORT_MEDIAN:
        return float(shifts.middle(f))
    f = np.sort(f)
    h = m // 2
    return float(f[h]) if m % 2 else float((f[h - 1] + f[h]) / 2.0)


def _rolling_median(coarse: np.ndarray, k: int) -> np.ndarray:
    """Median of k (odd) values centred on each value."""
    nb, half = len(coarse), k // 2
    finite = not np.isnan(coarse).any()  # then no window has NaN: np.median is nanmedian
    median = np.median if finite else nan_median
    with np.errstate(all="ignore"):
        rolled = np.full(nb, np.nan)
        if nb >= k:
            windows = sliding_window_view(coarse, k)
            rolled[half : nb - half] = shifts.middle(windows) if finite else row_medians(windows)
        # near the ends the window shrinks symmetrically: a warm-up ramp is compared with its
        # own neighbourhood, not with the level reached later
        for j in range(min(half, nb)):
            rolled[j] = median(coarse[: 2 * j + 1])
            rolled[nb - 1 - j] = median(coarse[nb - 1 - 2 * j :])
    return rolled


def smoothing(v: np.ndarray, params: DetectParams = DETECT) -> int:
    """Samples of the moving average a series is judged on: 1 unless it is bursty."""
    finite = v[np.isfinite(v)]
    if len(finite) < params.min_samples:
        return 1
    # a stall is flat (0, 0, 0 ...): neither its level nor its repeats are the series' noise; a
    # value repeated elsewhere is (a latency percentile reported in steps of its histogram)
    steps = np.abs(np.diff(finite))[(finite[:-1] != 0) | (finite[1:] != 0)]
    if not len(steps):
        return 1
    level = float(np.percentile(finite, params.level_percentile))
    noise = float(np.percentile(steps, 75.0)) * P75_TO_SIGMA / np.sqrt(2.0)
    return params.smooth_samples if level > 0 and noise > params.bursty_noise * level else 1


def moving_average(v: np.ndarray, w: int) -> np.ndarray:
    """Centred mean of w (odd) samples, NaN-aware, shrinking at the ends."""
    if w <= 1:
        return v.copy()
    ok = np.isfinite(v)
    half = w // 2
    pad_v = np.concatenate((np.zeros(half), np.where(ok, v, 0.0), np.zeros(half)))
    pad_n = np.concatenate((np.zeros(half), ok.astype(float), np.zeros(half)))
    cs_v, cs_n = np.concatenate(([0.0], np.cumsum(pad_v))), np.concatenate(([0.0], np.cumsum(pad_n)))
    total, count = cs_v[w:] - cs_v[:-w], cs_n[w:] - cs_n[:-w]
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / count, np.nan)


def steady_state(
    t: np.ndarray, s: np.ndarray, depth: float, smooth: int = 1, params: DetectParams = DETECT, upward: bool = False
) -> Steady:
    """The baseline of the (smoothed) series s outside its drops and warm-up (rises if upward)."""
    finite = np.isfinite(s)
    if not finite.any():
        return Steady(np.full(len(s), np.nan), len(s), smooth)
    if upward:  # latency: no warm-up to skip, the steady level is the lower one
        warm = 0
        outside = _global_level(s, finite, depth, upward=True, params=params)
        outside &= ~_shifted_tail(s, outside, finite, params)
    else:
        top = _upper_level(s, finite, params)
        reached = np.flatnonzero(finite & (s >= (1.0 - depth) * top))
        # ... and held (its first sample there): a capture that starts before the benchmark does
        # (dool-bulk-insert-long-smooth: ~10,000 commits a second for 2 s, 0 for 12 s, the level
        # from 18 s)
        held = (
            _settled(s, int(reached[0]), params.settle_samples // 2, lambda m: m >= (1.0 - depth) * top, ahead=True)
            if len(reached)
            else len(s)
        )
        after = reached[reached >= held]
        warm = int(after[0]) if len(after) else len(s)
        # nothing measured before the warm-up's end (no warm-up): the same samples, the same level
        level = None if finite[:warm].any() else top
        back = _returned(t, s, finite, warm, depth, top, params)
        if back is not None:
            warm, level = 0, back
        outside = _global_level(s, finite & (np.arange(len(s)) >= warm), depth, params=params, level=level)
        if outside.any():
            ceiling = (1.0 + depth) * float(np.median(s[outside]))
            warm = _settled(s, warm, params.settle_samples, lambda m: m <= ceiling)
            if back is not None:  # the stretch above the level it came back to is no steady state
                outside &= s <= ceiling
    calm = ~long_runs(~outside & finite, params.min_excluded) & finite & (np.arange(len(s)) >= warm)
    if calm.sum() < params.min_calm:
        calm = finite & (np.arange(len(s)) >= warm)
    if not calm.any():
        return Steady(np.full(len(s), np.nan), warm, smooth)
    local = baseline(t[calm], s[calm], params)
    return Steady(np.interp(t, t[calm], local), warm, smooth)


def _returned(
    t: np.ndarray, s: np.ndarray, finite: np.ndarray, warm: int, depth: float, top: float, params: DetectParams
) -> float | None:
    """The level a throughput started at, below its upper level for a level's length at least
    (DetectParams.level_s), and came back to for as long at its end: the run's level, the upper
    one a stretch in between (a workload spike raising a server's own rate: client-spike-long-tpccio
    without its log, 300 commits a second, ~2,150 for 40 s, 300 again). A warm-up does not come
    back. None where the series did not."""
    before = s[:warm][finite[:warm]]
    if len(before) * sample_step(t) < params.level_s:
        return None
    level = float(np.median(before))
    if not 0.0 < level < (1.0 - depth) * top:
        return None
    end = float(np.median(s[finite][-len(before) :]))
    return level if abs(end / level - 1.0) <= depth else None


def _shifted_tail(s: np.ndarray, outside: np.ndarray, use: np.ndarray, params: DetectParams) -> np.ndarray:
    """The samples of a latency level the series moves to and keeps to its end, more than twice
    its level before: they are not its steady state. The latency's level is first estimated by
    its median, which such a tail pulls up (where the throughput's starts from its upper level,
    which a drop to the end does not move), and the rolling baseline follows whatever level a run
    ends on: without this a rise lasting to the end is absorbed as the run's new normal. Not for
    throughput: a quiet run of bench/drop_quality settles ~40 % lower for its second half with
    nothing injected. The change point is the Pettitt test's (a rank statistic: a few huge
    samples do not move it), searched in the last `tail_share` of the series, and moved back over
    the samples before it already above twice the level; the levels are medians, the one before
    of the samples near the run's level."""
    idx = np.flatnonzero(use)
    n, m = len(idx), params.tail_samples
    tail = np.zeros(len(s), bool)
    if n < 2 * m:
        return tail
    x = s[idx]
    ranks = np.empty(n, np.float64)
    ranks[np.argsort(x, kind="stable")] = np.arange(1, n + 1)
    k = np.arange(1, n)
    u = k * (n + 1.0) - 2.0 * np.cumsum(ranks)[:-1]  # > 0: the first k samples rank below the rest
    lo = max(int(n * (1.0 - params.tail_share)), 1)
    if lo > n - m:
        return tail
    best = lo - 1 + int(np.argmax(u[lo - 1 : n - m]))
    top = float(u[best])
    if not top > 0 or 2.0 * np.exp(-6.0 * top * top / (float(n) ** 3 + float(n) ** 2)) >= params.tail_p:
        return tail
    first = int(k[best])
    before = outside[idx[:first]]
    level = float(np.median(x[:first][before] if before.any() else x[:first]))
    after = float(np.median(x[first:]))
    if after > 2.0 * level:  # as _global_level's "near": twice the level
        # it began where the series left the level before it: the change point is searched in the
        # last tail_share only (a disk burst from 41 s to the end of a 90 s rated run: from 46 s)
        while first > 0 and x[first - 1] > 2.0 * level:
            first -= 1
        tail[idx[first] :] = True
    return tail


def _settled(
    s: np.ndarray, warm: int, width: int, level: Callable[[np.ndarray], np.ndarray], ahead: bool = False
) -> int:
    """Where a series has settled to its steady level: the first sample from `warm` on whose
    centred median of `width` samples (`ahead`: of it and the width - 1 after it) is at the
    `level` (a test of medians; no later than the end). From above: a bursty table warming up goes
    430 -> 250 tps over its first 25 s, and a dip on the way down is the warm-up, not a drop below
    the steady state. From below, ahead: a first sample at the level is not the level reached when
    the series falls away again (a capture started before the benchmark), and a drop soon after
    the level was reached is not the warm-up (DBPA concurrent_inserts case-003: 5 samples of 5 s,
    then -60 % from 25 s: a centred median of 11 read the drop as the warm-up)."""
    half = 0 if ahead else width // 2
    start = max(warm - half, 0)
    head = s[start : start + width]
    if len(head) < width:
        return warm
    with warnings.catch_warnings():  # a window of no sample: NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        if _at(np.asarray([np.nanmedian(head)]), level)[0]:  # already at its level: the usual case
            return warm
        for lo in range(start, len(s) - width + 1, 256):  # in strides: a long high start stays cheap
            windows = sliding_window_view(s[lo : lo + 256 + width - 1], width)
            down = np.flatnonzero(_at(np.nanmedian(windows, axis=1), level))
            if len(down):
                return max(warm, lo + int(down[0]) + half)
    return warm


def _at(medians: np.ndarray, level: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """Which medians are at the level; one of no sample (NaN) counts as at it."""
    with np.errstate(invalid="ignore"):
        return ~np.isfinite(medians) | level(medians)


def long_runs(mask: np.ndarray, n: int) -> np.ndarray:
    """The samples of mask that are in runs of at least n consecutive ones."""
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    keep = (stops - starts) >= n
    marks = np.zeros(len(mask) + 1, np.int64)
    np.add.at(marks, starts[keep], 1)
    np.add.at(marks, stops[keep], -1)
    return np.cumsum(marks[:-1]) > 0


def _upper_level(s: np.ndarray, use: np.ndarray, params: DetectParams) -> float:
    """The series' upper level: its level_percentile over the samples that did any work. A
    throughput of zero is a stall, never the level, even when the stall is most of the run (a
    global read lock that queued every writer from 30 s to the end of a 162 s run)."""
    live = use & (s > 0)
    return float(np.percentile(s[live if live.any() else use], params.level_percentile))


def _global_level(
    s: np.ndarray,
    use: np.ndarray,
    depth: float,
    upward: bool = False,
    params: DetectParams = DETECT,
    level: float | None = None,
) -> np.ndarray:
    """The samples near the run's level, re-estimated twice without the samples far from it. The
    first estimate (`level` when the caller has it) is the upper level (a drop longer than half
    the run pulls the median into it), for latency the median."""
    if not use.any():
        return use.copy()
    if level is None:
        level = float(np.median(s[use])) if upward else _upper_level(s, use, params)

    def near(level: float) -> np.ndarray:
        with np.errstate(invalid="ignore"):
            return use & ((s <= level * 2.0) if upward else (s >= level * (1.0 - depth)))

    first = near(level)
    # once more around the median of those; a third estimate would go unused (its median was
    # 1 ms of a 24 h series' steady state)
    return near(float(np.median(s[first]))) if first.any() else first


@dataclass(frozen=True)
class Detection:
    """A series' drops and its steady span (steady_span's value), and the catch-up bursts its
    short segments' tests left out of the rest (_catch_up): stretches of depth 0, proven (each holds
    a sample beyond the cap), which a drop's explanation, its edges and a window's reference leave
    out of the steady state too (run_drops, window)."""

    drops: list[Drop]
    span: tuple[float, float]
    bursts: list[Drop]


def detect(
    t: np.ndarray,
    v: np.ndarray,
    sensitivity: str | Sensitivity = "normal",
    segments: list[tuple[float, float]] | None = None,
    params: DetectParams = DETECT,
) -> list[Drop]:
    """Drops of v(t), each segment (load step) on its own baseline. `sensitivity`: a preset's name
    (SENSITIVITY) or a Sensitivity of one's own."""
    return detection(t, v, sensitivity, segments, params).drops


def detection(
    t: np.ndarray,
    v: np.ndarray,
    sensitivity: str | Sensitivity = "normal",
    segments: list[tuple[float, float]] | None = None,
    params: DetectParams = DETECT,
) -> Detection:
    """detect's drops and steady_span's span. When one segment is the whole series (a run at one
    load) the span comes from the drops' own steady state: it is computed once, not twice (the
    steady state is most of a 24 h series' detection)."""
    sens = SENSITIVITY[sensitivity] if isinstance(sensitivity, str) else sensitivity
    t, v = _sorted(t, v)
    drops: list[Drop] = []
    bursts: list[Drop] = []
    span = None
    for ts, vs in segmented(t, v, segments):
        found, warm, burst = _detect_one(ts, vs, sens, params)
        drops.extend(found)
        bursts.extend(burst)
        if warm is not None and len(ts) == len(t):
            span = _span(ts, warm)
    if span is None:
        span = steady_span(t, v, sens, params)
    return Detection(sorted(drops, key=lambda d: d.start), span, bursts)


def _sorted(t: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """t and v in time order (a stable sort), float64; a series from the library is in order already."""
    t = np.asarray(t, np.float64)
    v = np.asarray(v, np.float64)
    if len(t) > 1 and not (t[1:] >= t[:-1]).all():
        order = np.argsort(t, kind="stable")
        t, v = t[order], v[order]
    return t, v


def segmented(
    t: np.ndarray, v: np.ndarray, segments: list[tuple[float, float]] | None
) -> list[tuple[np.ndarray, np.ndarray]]:
    t, v = _sorted(t, v)
    if segments is None:
        segments = [(float(t[0]), float(t[-1]))] if len(t) else []
    out = []
    for lo, hi in segments:
        keep = (t >= lo) & (t <= hi)
        out.append((t[keep], v[keep]))
    return out


def _detect_one(
    t: np.ndarray, v: np.ndarray, sens: Sensitivity, params: DetectParams
) -> tuple[list[Drop], int | None, list[Drop]]:
    """The drops of one segment, where its warm-up ends (None: too short to be searched) and the
    catch-up bursts its test left out (a short segment's)."""
    if len(t) < params.min_samples:
        return [], None, []
    step = sample_step(t)
    w = smoothing(v, params)
    s = moving_average(v, w)
    st = steady_state(t, s, sens.depth, w, params)
    after = np.arange(len(s)) >= st.warm
    with np.errstate(invalid="ignore"):
        # a complete stall is always a candidate, whatever the smoothing and the noise gate
        stall = long_runs((v <= params.stall * st.base) & np.isfinite(v) & (st.base > 0) & after, 2)
    # the moving average of w samples correlates w neighbours: a chance dip lasts w - 1 longer
    found = _pass(t, v, s, st, sens, sens.min_s + (w - 1) * step, step, stall, params)
    # a long shallow drop: its mean far below the baseline, its samples within the noise gate
    wide = max(params.sustained_samples, w)
    shallow = Sensitivity(sens.depth * params.sustained_depth, sens.min_s, sens.z)
    marks = np.zeros(len(t) + 1, np.int64)
    for d in found:
        marks[np.searchsorted(t, d.start, "right")] += 1
        marks[np.searchsorted(t, d.end, "right")] -= 1
    taken = np.cumsum(marks[:-1]) > 0
    longer = _pass(
        t, v, moving_average(v, wide), st, shallow, max(params.sustained_s, sens.min_s), step, None, params, taken
    )
    found += [d for d in longer if not any(d.start < f.end and d.end > f.start for f in found)]
    if len(v) < TESTABLE:
        use, burst = _tested_use(t, v, st, sens, step)
        return _short_tested(t, v, found, sens, st, step, params, use), st.warm, _stretches(t, v, burst, st.base, step)
    return _significant(t, v, found, sens, st.warm, step, w), st.warm, []


def _short_tested(
    t: np.ndarray,
    v: np.ndarray,
    found: list[Drop],
    sens: Sensitivity,
    st: Steady,
    step: float,
    params: DetectParams,
    use: np.ndarray,
) -> list[Drop]:
    """The candidates of a short series, each marked `tested` when level_test finds it below the
    rest of the steady part beyond chance (at the sensitivity's false-alarm rate); the others stay
    candidates, with the alpha at which a second series may confirm them (level_test.judged), for
    run_drops to keep only when one does. The steady part ends before the benchmark's ramp-down
    (`use`: the samples they are tested against, _tested_use's)."""
    raw = v
    v = _capped(v, use)  # tested capped, described as it is
    n = int(use.sum())
    even = level_test.critical(n, level_test.PLAUSIBLE, step=step)
    candidates = []
    for d in found:
        span = _indices(t, d, step)
        candidates.append((level_test.strength(v, use, *span)[0], span, st.base))
    # the series' own strongest stretch (the two-level fit's best over every interval, which the
    # critical values are the maximum of), when above chance at even odds and material, in place
    # of the candidates it meets when none of them is: a long drop the thresholds cut in pieces,
    # or one lasting to the run's end, which the rolling baseline follows (its last 40 s at -27 %
    # read -1 % against it). Its depth is the two-level fit's, against the rest of the run, as its
    # test is: at the first look's alpha (Sensitivity.selection), calibrated on this very maximum.
    # In place of candidates that are above even odds but unproven too, when it is proven at a
    # smaller alpha (_fragments_joined).
    best = level_test.strongest(v, use)
    whole = None  # the strongest stretch, material, and its level: the rest's median
    if best is not None and best[0] >= even and not _no_level_before(use, *best[1], step, params):
        a, b = best[1]
        rest = use.copy()
        rest[a : b + 1] = False
        level = np.full(len(v), float(np.median(raw[rest])) if rest.any() else np.nan)
        if _drop(t, raw, level, a, b, step).depth >= sens.floor:
            whole = (best[0], best[1], level)
            meets = [c for c in candidates if c[1][0] <= b and c[1][1] >= a]
            if all(c[0] < even for c in meets):
                candidates = [c for c in candidates if c not in meets] + [whole]
    # two candidates on one stretch are one drop: the stronger kept
    spans: list[tuple[int, int]] = []
    bases: list[np.ndarray] = []
    for _, (a, b), base in sorted(candidates, key=lambda c: -c[0]):
        if not any(a <= y and b >= x for x, y in spans):
            spans.append((a, b))
            bases.append(base)
    said = level_test.judged(v, use, spans, step, sens.alarms, selection=sens.selection)
    out = [
        replace(_drop(t, raw, base, a, b, step), tested=ok, confirm_alpha=second, own_p=p)
        for (a, b), base, (ok, second, p) in zip(spans, bases, said, strict=True)
    ]
    if whole is not None:
        out = _fragments_joined(t, raw, out, whole, int(use.sum()), sens, step)
    more = _beyond(t, raw, v, use, out, sens, step)
    if more is not out:  # judged again: the alpha a second series confirms at shared among them
        out = sorted(more, key=lambda d: d.start)
        said = level_test.judged(
            v,
            use,
            [_indices(t, d, step) for d in out],
            step,
            sens.alarms,
            proven=[d.tested for d in out],
            selection=sens.selection,
        )
        out = [replace(d, tested=ok, confirm_alpha=c, own_p=p) for d, (ok, c, p) in zip(out, said, strict=True)]
    out = _between_levels(t, raw, v, use, sorted(out, key=lambda d: d.start), sens, st.base, step)
    return [d for d in out if not _no_level_before(use, *_indices(t, d, step), step, params)]


def _no_level_before(use: np.ndarray, a: int, b: int, step: float, params: DetectParams) -> bool:
    """Whether the stretch a .. b of the tested samples `use` lasts to their end with less than
    DetectParams.level_s before it: no level to be a drop from. A start above the steady level too
    short for the warm-up to cut (flushing-short-writes: ~10,000 tps for 3 s, then ~3,600 with
    stalls; the strongest stretch was the other 72 s), or the tail of a warm-up from above, cut
    where it came within (1 + depth) of the level and still coming down (430 -> 255 tps: its 5 s
    after the cut read as a level 16 % above the rest)."""
    return bool(not use[b + 1 :].any() and np.count_nonzero(use[:a]) * step < params.level_s)


def _between_levels(
    t: np.ndarray,
    raw: np.ndarray,
    v: np.ndarray,
    use: np.ndarray,
    found: list[Drop],
    sens: Sensitivity,
    base: np.ndarray,
    step: float,
) -> list[Drop]:
    """`found` with the candidates that every test before left unproven tested against each side's
    own level (level_test.between, at the series' alpha / BETWEEN_SHARE: a last look, paid for by
    a smaller alpha), the proven drops out of the series: a drop between two levels, which the
    rest held to one level reads as noise (held-out hot-rows-short-hot: ~1,420 commits a second,
    -33 % for 12 s, then ~1,550: T 8.7 against 10.2; `between` 11.2 against 9.2). Each is tested
    as the strongest such stretch meeting it (level_test.strongest_between), which takes the
    place of the candidate: the thresholds' stretch may hold the level after the drop (dool
    bulk-insert-long-hot: ~17,500 commits a second, ~9,000 for 41 s, then ~13,000 to the end, one
    candidate to the end of the run: -39 %, unproven). Step-down, the strongest first, until one
    fails. A candidate beside another drop (a sample apart) is not tested so: its side would be
    that drop's edge, a fragment of it, not a level (on a -29 % drop cut in two by the thresholds,
    its first 2 s were proven a drop of their own)."""
    left = _without_proven(t, use, found, step)
    spans = [_indices(t, d, step) for d in found]
    beside = [
        any(i != j and c - 1 <= b + 1 and d + 1 >= a - 1 for j, (c, d) in enumerate(spans))
        for i, (a, b) in enumerate(spans)
    ]
    order = [i for i, d in enumerate(found) if not d.tested and not beside[i] and d.kind == "drop"]
    out = list(found)
    rest, near = _off_proven(use, left)
    best = {i: level_test.strongest_between(v, rest, *spans[i], apart=near) for i in order}
    for i in sorted((i for i in order if best[i] is not None), key=lambda i: -best[i][0]):  # type: ignore[index]
        # the ranking's stretch, until a proof changed the samples left
        got = best.pop(i) if i in best else level_test.strongest_between(v, rest, *spans[i], apart=near)
        m = int(left.sum())
        if got is None or got[0] < level_test.critical(
            m, level_test.alpha(m, step, sens.alarms) / BETWEEN_SHARE, step=step, apart=True
        ):
            break
        a, b = got[1]
        out[i] = replace(found[i] if (a, b) == spans[i] else _drop(t, raw, base, a, b, step), tested=True)
        left[a : b + 1] = False
        rest, near = _off_proven(use, left)
        best.clear()
    # an unproven candidate the proven stretch of another took in is part of it
    proven = [d for d in out if d.tested]
    return [d for d in out if d.tested or not any(p.start < d.end and d.start < p.end for p in proven)]


def _beyond(
    t: np.ndarray, raw: np.ndarray, v: np.ndarray, use: np.ndarray, found: list[Drop], sens: Sensitivity, step: float
) -> list[Drop]:
    """`found` with the step-down gone on past its candidates once the series proved some of them
    (the same list when it did not): the strongest stretch of the rest (those drops out of it and
    on no side of one), tested as the step-down's next step (the maximum over every interval of
    the samples left, at their alpha), material against the rest's median, in place of the
    unproven candidates it meets; again until one fails, which is kept as a candidate when above
    chance at even odds, for a second series to confirm. A drop the thresholds cut only a
    fragment of, hidden by the proven one beside it: held-out rebuild-long-hot, another client's
    rebuilds took the hot workload from 1,400 to ~880 commits a second for 31 s, then its last
    ALTER's metadata lock stalled it at 0 for 120 s; the stall, two thirds of the run, put the
    rolling baseline at ~1,000, and only the stall was a candidate. On noise alone this runs only
    after a false proof; bench/procedure_calibration.py measures it beside a true one."""
    left = _without_proven(t, use, found, step)
    if left.sum() == use.sum():
        return found
    out = found
    while (best := level_test.strongest_apart(v, *_off_proven(use, left))) is not None:
        m = int(left.sum())
        if best[0] < level_test.critical(m, level_test.PLAUSIBLE, step=step):
            break
        a, b = best[1]
        if np.count_nonzero(left[:a]) < level_test.MIN_LEN:
            # no steady level before it: the warm-up's end, a ramp still climbing (DBPA small
            # shared buffer case-007: a small pool warming from 50 to 200 commits a second over 200
            # s, the first 90 cut as the warm-up, read -25 % against the level it climbed to)
            break
        rest = left.copy()
        rest[a : b + 1] = False
        d = _drop(t, raw, np.full(len(v), float(np.median(raw[rest]))), a, b, step)
        if d.depth < sens.floor:
            break
        proven = best[0] >= level_test.critical(m, level_test.alpha(m, step, sens.alarms), step=step)
        out = [c for c in out if c.tested or c.end <= d.start or c.start >= d.end] + [replace(d, tested=proven)]
        if not proven:
            break
        left[a : b + 1] = False
    return out


def _off_proven(use: np.ndarray, left: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The samples a look beyond the proven drops may take (`left` of `use`, the proven ones out)
    and those it must not reach across: the proven drops' samples and the samples next to them. A
    stretch a sample from a proven drop is that drop's edge, not a drop of its own (a drop that
    deepens halfway, its last 2 s -15 % as it came back)."""
    proven = use & ~left
    near = proven.copy()
    near[1:] |= proven[:-1]
    near[:-1] |= proven[1:]
    return left & ~near, near


def _without_proven(t: np.ndarray, use: np.ndarray, found: list[Drop], step: float) -> np.ndarray:
    """The samples `use` marks outside every drop of `found` its test proved."""
    left = use.copy()
    for d in found:
        if d.tested:
            a, b = _indices(t, d, step)
            left[a : b + 1] = False
    return left


def _test_series(
    t: np.ndarray, v: np.ndarray, st: Steady, sens: Sensitivity, step: float
) -> tuple[np.ndarray, np.ndarray]:
    """A short series as its candidates are tested (capped: _capped) and the samples they are
    tested against (_tested_use)."""
    use, _ = _tested_use(t, v, st, sens, step)
    return _capped(v, use), use


def _tested_use(
    t: np.ndarray, v: np.ndarray, st: Steady, sens: Sensitivity, step: float
) -> tuple[np.ndarray, np.ndarray]:
    """The samples a short series' candidates are tested against, its steady part: the warm-up,
    the benchmark's ramp-down and the catch-up bursts after a stall (_catch_up, the second mask)
    left out."""
    use = np.isfinite(v)
    use[: st.warm] = False
    use[_ramp_down(t, v, st.base, sens, step) :] = False
    burst = _catch_up(v, use, st.base, sens.depth)
    use[burst] = False
    return use, burst


def _tested_samples(
    t: np.ndarray, v: np.ndarray, sens: Sensitivity, params: DetectParams
) -> tuple[np.ndarray, np.ndarray, float]:
    """_test_series of a segment from its samples alone (its steady state found as detection finds
    it), and its sample step."""
    step = sample_step(t)
    w = smoothing(v, params)
    x, use = _test_series(t, v, steady_state(t, moving_average(v, w), sens.depth, w, params), sens, step)
    return x, use, step


def _stretches(t: np.ndarray, v: np.ndarray, mask: np.ndarray, base: np.ndarray, step: float) -> list[Drop]:
    """Each run of samples `mask` marks, as a Drop against `base` (depth 0 for a burst above it)."""
    edges = np.flatnonzero(np.diff(np.concatenate(([0], mask.astype(np.int8), [0]))))
    return [_drop(t, v, base, a, b - 1, step) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def first_look(
    t: np.ndarray, v: np.ndarray, sensitivity: str | Sensitivity = "normal", params: DetectParams = DETECT
) -> tuple[float, int] | None:
    """The T of a short series' strongest stretch over the samples its candidates are tested on
    (_test_series: the warm-up and ramp-down cut, the catch-up capped), and how many those are;
    None when there is none. Every test of the first look proves a stretch whose T is at most this:
    bench/procedure_calibration.py --first-look measures its null rate (Sensitivity.selection)."""
    sens = SENSITIVITY[sensitivity] if isinstance(sensitivity, str) else sensitivity
    x, use, _ = _tested_samples(t, v, sens, params)
    best = level_test.strongest(x, use)
    return None if best is None else (best[0], int(use.sum()))


def retested(
    t: np.ndarray,
    v: np.ndarray,
    found: list[Drop],
    proven: set[int],
    sensitivity: str | Sensitivity = "normal",
    segments: list[tuple[float, float]] | None = None,
    params: DetectParams = DETECT,
) -> list[Drop]:
    """The candidates of `found` (detection's, on these t and v) that their own series proves once
    those a second series proved (`proven`: their ids; run_drops) are out of its rest: the
    step-down of level_test.judged, gone on past them. A series of TESTABLE samples or more has no
    candidates to go on with (shifts.significance judged each)."""
    sens = SENSITIVITY[sensitivity] if isinstance(sensitivity, str) else sensitivity
    out: list[Drop] = []
    for ts, vs in segmented(t, v, segments):
        mine = [d for d in found if len(ts) and ts[0] <= d.end <= ts[-1]]
        sure = [d.tested or id(d) in proven for d in mine]
        if len(ts) < params.min_samples or len(ts) >= TESTABLE or all(sure) or not any(sure):
            continue
        x, use, step = _tested_samples(ts, vs, sens, params)
        spans = [_indices(ts, d, step) for d in mine]
        said = level_test.judged(x, use, spans, step, sens.alarms, proven=sure, selection=sens.selection)
        out += [d for d, was, (ok, _, _) in zip(mine, sure, said, strict=True) if ok and not was]
    return out


def _fragments_joined(
    t: np.ndarray,
    raw: np.ndarray,
    found: list[Drop],
    whole: tuple[float, tuple[int, int], np.ndarray],
    n: int,
    sens: Sensitivity,
    step: float,
) -> list[Drop]:
    """The run's strongest stretch (T, its first and last sample, its level) in place of the
    candidates it holds when they are fragments of it that their own tests do not prove and it is
    proven at the series' alpha / JOINED_SHARE: a second look beside the first, paid for by a
    smaller alpha. A drop that deepens halfway is cut by the thresholds into its deeper part,
    which the rest of the drop, left in its reference, hides (hot-rows-long-hot: -25 % for 16 s,
    then -38 % for 24 s; the deeper part T 4.0 against 8.6, the whole T 16).
    bench/procedure_calibration.py measures its null rate and its power on that shape."""
    t_best, (a, b), level = whole
    lo, hi = float(t[a] - step), float(t[b])
    inside = [d for d in found if d.end > lo and d.start < hi]
    # fragments: most of each within the stretch (their edges and its own may be a sample apart)
    held = all(min(d.end, hi) - max(d.start, lo) > d.duration / 2 for d in inside)
    if not inside or not held or any(d.tested for d in inside):
        return found
    if t_best < level_test.critical(n, level_test.alpha(n, step, sens.alarms) / JOINED_SHARE, step=step):
        return found
    return [d for d in found if d not in inside] + [_drop(t, raw, level, a, b, step)]


def _catch_up(v: np.ndarray, use: np.ndarray, base: np.ndarray, depth: float) -> np.ndarray:
    """The samples of the bursts that drain a stall's queue: from right after a sample below (1 -
    depth) of the baseline, the samples above (1 + depth) of it, where one of them is beyond the
    cap (_top: a burst no noise of the level makes). A rate-limited driver's clients hold the work
    a stall kept back and send it after (held-out net-congest-short-tpccrated without its log:
    commits at 0 for 12 s, then x1.9 for 14 s); in the rest a stall is tested against, capped or
    not, they are a second level beside the run's, far from it and correlated from sample to
    sample, which made the stall's noise (own p 0.25). They are the stall's consequence, no
    noise of the level; a burst after a sample that was not low is left to the cap."""
    out = np.zeros(len(v), dtype=bool)
    top = _top(v, use)
    if top is None:
        return out
    with np.errstate(invalid="ignore"):
        low = v < (1.0 - depth) * base
        high = v > (1.0 + depth) * base
    for i in np.flatnonzero(low[:-1] & high[1:]):
        j = i + 1
        while j < len(v) and high[j]:
            j += 1
        if np.any(v[i + 1 : j] > top):
            out[i + 1 : j] = True
    return out


def _top(v: np.ndarray, use: np.ndarray) -> float | None:
    """Where _capped cuts v's upward excursions (None: too few samples, or no spread)."""
    x = v[use]
    if len(x) < 3:
        return None
    med = float(np.median(x))
    sigma = MAD_TO_SIGMA * float(np.median(np.abs(x - med)))
    return float(np.percentile(x, 75)) + CAP_SIGMAS * sigma if sigma > 0 else None


def _capped(v: np.ndarray, use: np.ndarray) -> np.ndarray:
    """v with its upward excursions beyond CAP_SIGMAS robust sigmas (of its used samples) above their
    upper quartile cut there: the catch-up burst after a stall (14 -> 359 tps the second a read lock
    is released) is no noise of the level a drop is tested against, and upward excursions are never
    drops. Above the upper quartile, not the median: a drop of more than half the run makes the
    median its own, and cut the run's level down to it (a DBPA capture at ~100 tps then ~5 to its
    end: every sample of the ~100 cut to 32, a calm step). The sigma stays the samples' spread: the
    sample-to-sample differences' reads a noise correlated at 0.9 as a third of it, and would cut
    its wander. Under normal noise it cuts one sample in a million."""
    top = _top(v, use)
    return v if top is None else np.where(v > top, top, v)


def _ramp_down(
    t: np.ndarray, v: np.ndarray, base: np.ndarray, sens: Sensitivity, step: float, params: DetectParams = DETECT
) -> int:
    """Where the benchmark's own ramp-down starts (len(v) when it has none): its last samples below
    (1 - depth) of the baseline, for ramp_down_s at most (threads finishing: a dool capture's
    last reports at 0). No drop, and no part of the series a drop is tested against."""
    with np.errstate(invalid="ignore"):
        low = ~(v >= (1.0 - sens.depth) * base)
    k = len(v)
    while k > 0 and low[k - 1]:
        k -= 1
    return k if k < len(v) and float(t[-1] - t[k] + step) <= params.ramp_down_s else len(v)


def _indices(t: np.ndarray, d: Drop, step: float) -> tuple[int, int]:
    """The first and last sample of a drop (its start is the interval before its first sample)."""
    return _samples(t, d.start, d.end, step)


def _samples(t: np.ndarray, start: float, end: float, step: float) -> tuple[int, int]:
    """The first and last sample of the edges [start, end] of a drop."""
    return int(np.searchsorted(t, start + step / 2)), int(np.searchsorted(t, end, "right")) - 1


def _significant(
    t: np.ndarray, v: np.ndarray, found: list[Drop], sens: Sensitivity, warm: int, step: float, w: int
) -> list[Drop]:
    """The candidate drops that are significant (shifts.significance: the multiscale scan's test
    on the interval, the noise measured without it and without the other candidates), and the
    scan's own dips where no candidate was: a long shallow drop the thresholds above miss."""
    p = scan_params(sens, step)
    spans = [_indices(t, d, step) for d in found]
    # the largest first; the noise of each is measured without the drops kept before it (not
    # without every candidate: on noise alone the candidates are the noise's own low stretches,
    # and leaving them all out made the rest look calm)
    kept = []
    accepted = np.zeros(len(v), bool)
    rest = len(v) - warm
    # a bursty series is tested on the moving average it is judged on: its second-to-second swing
    # (30, 170, 30, 170 ...) is no noise of a mean over seconds, which the variogram's model
    # (white plus AR(1) noise) cannot say
    x = moving_average(v, w)
    # the noise of a smooth series robustly (the drops not yet tested are in it: 36 recurring dips
    # are a third of a run); a bursty one's as a variance, whose moving average's small steps make
    # a median absolute deviation read half its spread (Poisson counts of mean 1: 12-18 false
    # drops per 10,000 s)
    robust = w == 1
    p = replace(p, robust=robust)
    # a smooth series is x itself: the scan's variogram below (robust) has the same cap
    cap = shifts.noise_cap(x[warm:], robust=True) if robust else None
    whole = (
        shifts.Variogram(x[warm:], max_lag=max(6, 2 * p.min_len, rest // 4), robust=robust, cap=cap)
        if rest > SHARED_NOISE * 50
        else None
    )

    def shared(a: int, b: int) -> shifts.Variogram | None:
        return whole if whole is not None and b - a + 1 <= rest // SHARED_NOISE else None

    for d, (a, b) in sorted(zip(found, spans, strict=True), key=lambda c: -c[0].score):
        if b >= a and shifts.significance(x, a, b, p, warm, accepted, shared(a, b)) is not None:
            kept.append(d)
            accepted[a : b + 1] = True
    # the scan adds what the thresholds above miss, long shallow drops
    for a, b, dip in scan_beside(t, v, p, warm, baseline(t, v), accepted, sens.min_s, step, cap):
        if shifts.significance(x, a, b, p, warm, accepted, shared(a, b)) is not None:
            kept.append(_drop(t, v, np.full(len(v), dip.ref), a, b, step))
    return sorted(kept, key=lambda d: d.start)


def scan_beside(
    t: np.ndarray,
    x: np.ndarray,
    p: shifts.ScanParams,
    start: int,
    local: np.ndarray,
    kept: np.ndarray,
    min_s: float,
    step: float,
    cap: float | None = None,
) -> Iterator[tuple[int, int, shifts.Dip]]:
    """The scan's dips of x (shifts.scan) from SCAN_MIN_S on where no finding is `kept` (a rejected
    candidate does not hide one), their edges refined, at least max(min_s, SCAN_MIN_S) long, for
    the caller to test: drops and latency rises alike. `kept` is read as each dip comes, so what
    the caller keeps meanwhile counts. The shortest lengths, scanned at every sample, were most of
    the scan's time on a 24-h series; a longer window's mean around a shorter dip is not one.
    `cap`: shifts.noise_cap(x[start:], robust=True), when the caller has it."""
    longer = replace(p, min_len=max(p.min_len, math.ceil(SCAN_MIN_S / step)))
    for dip in shifts.scan(x, longer, start, local, kept, cap):
        if kept[dip.a : dip.b + 1].any():
            continue
        a, b = shifts.refine(x, dip, start, len(x) - 1)
        if float(t[b] - t[a] + step) >= max(min_s, SCAN_MIN_S):
            yield a, b, dip


def scan_params(sens: Sensitivity, step: float) -> shifts.ScanParams:
    """The scan's parameters for a sensitivity and a sampling interval (seconds)."""
    return shifts.ScanParams(
        offset=sens.offset,
        depth=sens.floor,
        min_len=max(2, math.ceil(sens.min_s / step - 1e-9)),
        horizon=shifts.HORIZON_S / step,
    )


def _pass(
    t: np.ndarray,
    v: np.ndarray,
    s: np.ndarray,
    st: Steady,
    sens: Sensitivity,
    min_s: float,
    step: float,
    stall: np.ndarray | None,
    params: DetectParams,
    taken: np.ndarray | None = None,
) -> list[Drop]:
    """The drops of v found on its smoothed s: stretches below the margin for min_s (a stall for
    sens.min_s), merged, with edges where the level changes, each level of its own (_levels).
    Stretches touching `taken` (drops found already) are left out. `step`: sample_step(t)."""
    base = st.base
    margin = _margin(s, base, sens, params)
    after = np.arange(len(s)) >= st.warm
    with np.errstate(invalid="ignore"):
        below = (s < base - margin) & np.isfinite(s) & (base > 0) & after
        soft = (s < base - params.soft * margin) & np.isfinite(s) & after
    if stall is None:
        stall = np.zeros(len(s), bool)
    out = []
    for a, b in merge_fragments(t, merged_stretches(t, below | stall, params.merge_s + step), params, step):
        strict = float(t[b] - t[a] + step)
        if strict < (sens.min_s if stall[a : b + 1].any() else min_s):  # judged on the strict stretch
            continue
        if b == len(t) - 1 and strict <= params.ramp_down_s:
            continue  # the benchmark's own ramp-down
        if taken is not None and taken[a : b + 1].any():
            continue
        core = nan_median(v[a : b + 1])
        a, b = level_edges(v, base, core, *widened(soft, a, b))
        for lo, hi in _levels(v, base, a, b, sens, params, step):
            d = _drop(t, v, base, lo, hi, step)
            if d.depth >= sens.depth:  # a stretch that only grazes the threshold is the series' noise
                out.append(d)
    return out


def _levels(
    v: np.ndarray, base: np.ndarray, a: int, b: int, sens: Sensitivity, params: DetectParams, step: float
) -> list[tuple[int, int]]:
    """A drop a..b as the stretches of its levels: split where the mean changes most when the two
    sides are at least split_s long and the later one is deeper by the sensitivity's depth of the
    baseline: a drop that deepens is a second cause joining the first (a foreign slowdown at 25 s,
    then two disk writers from 30 s: two drops, each explained on its own). One that starts deep
    and recovers part of the way is one disturbance (a buffer pool shrunk online: a stall, then
    misses). Once: a drop has at most two levels."""
    m = round(params.split_s / step)
    n = b - a + 1
    if n < 2 * m or m < 1:
        return [(a, b)]
    x = v[a : b + 1]
    if not np.isfinite(x).all():
        return [(a, b)]
    cs = np.concatenate(([0.0], np.cumsum(x)))
    k = np.arange(m, n - m + 1)
    left, right = cs[k] / k, (cs[n] - cs[k]) / (n - k)
    # the split that explains most of the variance: the largest k (n - k) / n x (mean difference)^2
    best = int(np.argmax(k * (n - k) * (left - right) ** 2))
    j = int(k[best])
    # the means first (cheap: most drops are one level), then the medians decide
    if left[best] - right[best] < sens.depth * base[a + j] / 2:
        return [(a, b)]
    if nan_median(x[:j]) - nan_median(x[j:]) < sens.depth * nan_median(base[a : b + 1]):
        return [(a, b)]
    return [(a, a + j - 1), (a + j, b)]


def _margin(s: np.ndarray, base: np.ndarray, sens: Sensitivity, params: DetectParams) -> np.ndarray:
    """How far below its baseline a sample must be: depth x baseline, and z robust sigmas of the
    series' noise around its baseline, at most max_gate x baseline."""
    with np.errstate(invalid="ignore"):
        resid = s - base
        calm = resid > -sens.depth * base  # the noise is measured away from the candidate drops
        calm_resid = resid[calm] if calm.sum() >= params.min_calm else resid
        r = calm_resid[~np.isnan(calm_resid)]  # np.nanmedian's values, without its copies
        sigma = float(shifts.middle(np.abs(r - shifts.middle(r)))) * MAD_TO_SIGMA if len(r) else math.nan
        return np.minimum(np.maximum(sens.depth * base, sens.z * sigma), params.max_gate * base)


def merged_stretches(t: np.ndarray, below: np.ndarray, gap_s: float) -> list[list[int]]:
    """[first, last] indexes of the stretches of `below`, those at most gap_s apart merged."""
    edges = np.diff(np.concatenate(([0], below.astype(np.int8), [0])))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    runs: list[list[int]] = []
    for first, last in zip(starts.tolist(), stops.tolist(), strict=True):
        if runs and t[first] - t[runs[-1][1]] <= gap_s:
            runs[-1][1] = last
        else:
            runs.append([first, last])
    return runs


def merge_fragments(
    t: np.ndarray, runs: list[list[int]], params: DetectParams, step: float, away: np.ndarray | None = None
) -> list[list[int]]:
    """Stretches whose gap is short against both of them are one disturbance, and so are those
    between which the series stayed `away` from its baseline (most of the gap's samples): it
    never came back."""
    out: list[list[int]] = []
    for a, b in runs:
        if out:
            pa, pb = out[-1]
            shorter = min(t[pb] - t[pa], t[b] - t[a]) + step
            stayed = away is not None and 2 * int(away[pb + 1 : a].sum()) >= a - pb - 1
            if stayed or t[a] - t[pb] - step <= params.merge_fraction * shorter:
                out[-1][1] = b
                continue
        out.append([a, b])
    return out


def widened(soft: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """Hysteresis: the edges extend while samples stay below the softer threshold."""
    while a > 0 and soft[a - 1]:
        a -= 1
    while b < len(soft) - 1 and soft[b + 1]:
        b += 1
    return a, b


def low_edges(raw_low: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """The first and last samples of a..b that are low."""
    while a < b and not raw_low[a]:
        a += 1
    while b > a and not raw_low[b]:
        b -= 1
    return a, b


def level_edges(v: np.ndarray, base: np.ndarray, core: float, a: int, b: int) -> tuple[int, int]:
    """The edges where the level changes: the first and last raw samples nearer the drop's level
    `core` than the baseline (a moving average starts a drop half its width early, a slow recovery
    trails it)."""
    with np.errstate(invalid="ignore"):
        low = v[a : b + 1] < (base[a : b + 1] + core) / 2.0
    first, last = low_edges(low, 0, len(low) - 1)
    return a + first, a + last


def drop_over(t: np.ndarray, v: np.ndarray, baseline: float, start: float, end: float) -> Drop:
    """The drop of v(t) over [start, end] (epoch s, a drop's edges) against a flat baseline."""
    step = sample_step(t)
    return _drop(t, v, np.full(len(v), baseline), *_samples(t, start, end, step), step)


def _drop(t: np.ndarray, v: np.ndarray, base: np.ndarray, a: int, b: int, step: float) -> Drop:
    start, end = float(t[a] - step), float(t[b])
    ref = nan_median(base[a : b + 1])
    during = v[a : b + 1]
    d = max(0.0, 1.0 - nan_median(during) / ref) if ref > 0 else 0.0
    # np.nanmin's value (NaN only where every sample is) without its ~30 us of dispatch
    return Drop(start, end, d, ref, float(np.fmin.reduce(during)), d * (end - start))


def steady_span(
    t: np.ndarray, v: np.ndarray, sensitivity: str | Sensitivity = "normal", params: DetectParams = DETECT
) -> tuple[float, float]:
    """(start, end) epochs of a throughput series' steady part: after its warm-up, to its end."""
    sens = SENSITIVITY[sensitivity] if isinstance(sensitivity, str) else sensitivity
    ((t, v),) = segmented(t, v, None) or [(np.zeros(0), np.zeros(0))]
    if not len(t):
        return float("nan"), float("nan")
    w = smoothing(v, params)
    return _span(t, steady_state(t, moving_average(v, w), sens.depth, w, params).warm)


def _span(t: np.ndarray, warm: int) -> tuple[float, float]:
    return float(t[min(warm, len(t) - 1)] - sample_step(t)), float(t[-1])
