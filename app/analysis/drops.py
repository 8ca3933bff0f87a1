"""Throughput drops: where a series falls below its own local, robust baseline.

The baseline at each sample is the rolling median of the surrounding signal (`baseline_s` seconds
centred on it), not the run's global mean: a slow warm-up or a level that changes between load
steps moves the baseline with it and is not a drop. A drop is a stretch below baseline x (1 - depth)
lasting at least `min_s` seconds; stretches separated by less than `merge_s` are merged. Upward
excursions are never drops. Step loads are cut into steps first (`segments`, from
app.analysis.steps.find_steps), and each step gets its own baseline. For speed the rolling median
runs over medians of blocks of samples, then is interpolated back: 86,400 points take a few
milliseconds. The tuning numbers are the fields of `Sensitivity` (the user's choice, three
presets) and `DetectParams` (the detector's own), each with how it was chosen.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

# 1 / (the 75th percentile of the standard normal): the median absolute deviation of normally
# distributed data times this is its standard deviation (the usual consistency constant)
MAD_TO_SIGMA = 1.4826


@dataclass(frozen=True)
class Sensitivity:
    """A drop is deeper than `depth` x baseline AND than `z` robust sigmas of the series' own noise
    around its baseline, for at least `min_s` seconds."""

    depth: float
    min_s: float
    z: float


# Measured on real sysbench runs of this machine (TPS noise 13-22% of its level): z = 2 flags no
# stretch of an undisturbed run and finds 40-55% dips of 4 s and more. On the recorded corpus
# (bench/drop_quality/README.md) low and normal score F1 1.0; high finds every disturbance but also
# 9 dips of the undisturbed runs.
SENSITIVITY = {
    "low": Sensitivity(0.45, 5.0, 3.0),
    "normal": Sensitivity(0.30, 3.0, 2.0),
    "high": Sensitivity(0.20, 2.0, 1.5),
}


@dataclass(frozen=True)
class DetectParams:
    # seconds of the rolling-median baseline: drops up to about half of this stay below the median
    # of their surroundings
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
    # hysteresis: a drop's edges extend while samples stay below this fraction of the margin;
    # chosen by hand, not measured
    soft: float = 0.5
    # samples: a drop's baseline is read from the baseline over this many samples ending at its
    # first sample and as many starting at its last; chosen by hand, not measured
    edge_samples: int = 4


DETECT = DetectParams()


@dataclass(frozen=True)
class Drop:
    start: float  # epoch s: beginning of the first sample interval below the threshold
    end: float  # epoch s: time of the last sample below it
    depth: float  # 1 - median during / baseline
    baseline: float
    min: float
    score: float  # depth x duration: throughput-seconds lost, as a fraction of the baseline

    @property
    def duration(self) -> float:
        return self.end - self.start

    def label(self) -> str:
        return f"\u2212{self.depth * 100:.0f}% \u00b7 {self.duration:.0f} s"

    def as_json(self) -> dict[str, float]:
        return {k: float(v) for k, v in asdict(self).items()}


def baseline(t: np.ndarray, v: np.ndarray, params: DetectParams = DETECT) -> np.ndarray:
    """Rolling median of v over params.baseline_s seconds centred on each sample (NaN-robust)."""
    n = len(v)
    if n == 0:
        return v.copy()
    step = float(np.median(np.diff(t))) if n > 1 else 1.0
    step = step if step > 0 else 1.0
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


def _block_medians(v: np.ndarray, block: int) -> np.ndarray:
    """The median of each block of `block` samples (the last one may be shorter)."""
    nb = -(-len(v) // block)
    padded = np.full(nb * block, np.nan)
    padded[: len(v)] = v
    with np.errstate(all="ignore"):
        return np.nanmedian(padded.reshape(nb, block), axis=1)


def _rolling_median(coarse: np.ndarray, k: int) -> np.ndarray:
    """Median of k (odd) values centred on each value."""
    nb, half = len(coarse), k // 2
    with np.errstate(all="ignore"):
        rolled = np.full(nb, np.nan)
        if nb >= k:
            rolled[half : nb - half] = np.nanmedian(sliding_window_view(coarse, k), axis=1)
        # near the ends the window shrinks symmetrically: a warm-up ramp is compared with its
        # own neighbourhood, not with the level reached later
        for j in range(min(half, nb)):
            rolled[j] = np.nanmedian(coarse[: 2 * j + 1])
            rolled[nb - 1 - j] = np.nanmedian(coarse[nb - 1 - 2 * j :])
    return rolled


def detect(
    t: np.ndarray,
    v: np.ndarray,
    sensitivity: str | Sensitivity = "normal",
    segments: list[tuple[float, float]] | None = None,
    params: DetectParams = DETECT,
) -> list[Drop]:
    """Drops of v(t), each segment (load step) on its own baseline. `sensitivity`: a preset's name
    (SENSITIVITY) or a Sensitivity of one's own."""
    sens = SENSITIVITY[sensitivity] if isinstance(sensitivity, str) else sensitivity
    t = np.asarray(t, np.float64)
    v = np.asarray(v, np.float64)
    order = np.argsort(t, kind="stable")
    t, v = t[order], v[order]
    if segments is None:
        segments = [(float(t[0]), float(t[-1]))] if len(t) else []
    drops: list[Drop] = []
    for lo, hi in segments:
        sel = (t >= lo) & (t <= hi)
        drops.extend(_detect_one(t[sel], v[sel], sens, params))
    return sorted(drops, key=lambda d: d.start)


def _detect_one(t: np.ndarray, v: np.ndarray, sens: Sensitivity, params: DetectParams) -> list[Drop]:
    if len(t) < params.min_samples:
        return []
    base = baseline(t, v, params)
    step = float(np.median(np.diff(t)))
    margin = _margin(v, base, sens, params.min_calm)
    with np.errstate(invalid="ignore"):
        below = v < base - margin
    below &= np.isfinite(v) & (base > 0)
    if not below.any():
        return []
    with np.errstate(invalid="ignore"):
        soft = (v < base - params.soft * margin) & np.isfinite(v)
    out = []
    for a, b in _merged_stretches(t, below, params.merge_s + step):
        if float(t[b] - t[a] + step) < sens.min_s:  # the duration is judged on the strict stretch
            continue
        out.append(_drop(t, v, base, *_widened(soft, a, b), step, params.edge_samples))
    return out


def _margin(v: np.ndarray, base: np.ndarray, sens: Sensitivity, min_calm: int) -> np.ndarray:
    """How far below its baseline a sample must be: depth x baseline, and z robust sigmas of the
    series' noise around its baseline."""
    with np.errstate(invalid="ignore"):
        resid = v - base
        calm = resid > -sens.depth * base  # the noise is measured away from the candidate drops
        calm_resid = resid[calm] if calm.sum() >= min_calm else resid
        sigma = float(np.nanmedian(np.abs(calm_resid - np.nanmedian(calm_resid)))) * MAD_TO_SIGMA
        return np.maximum(sens.depth * base, sens.z * sigma)


def _merged_stretches(t: np.ndarray, below: np.ndarray, gap_s: float) -> list[list[int]]:
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


def _widened(soft: np.ndarray, a: int, b: int) -> tuple[int, int]:
    """Hysteresis: the edges extend while samples stay below the softer threshold."""
    while a > 0 and soft[a - 1]:
        a -= 1
    while b < len(soft) - 1 and soft[b + 1]:
        b += 1
    return a, b


def _drop(t: np.ndarray, v: np.ndarray, base: np.ndarray, a: int, b: int, step: float, edge: int) -> Drop:
    start, end = float(t[a] - step), float(t[b])
    # the baseline of a drop is its surroundings' level, read at its edges
    ref = float(np.nanmedian(np.concatenate((base[max(0, a - edge + 1) : a + 1], base[b : b + edge]))))
    during = v[a : b + 1]
    d = 1.0 - float(np.nanmedian(during)) / ref
    return Drop(start, end, d, ref, float(np.nanmin(during)), d * (end - start))
