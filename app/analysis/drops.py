"""Throughput drops: where a series falls below its own local, robust baseline.

The baseline at each sample is the rolling median of the surrounding signal (BASELINE_S seconds
centred on it), not the run's global mean: a slow warm-up or a level that changes between load
steps moves the baseline with it and is not a drop. A drop is a stretch below baseline x (1 - depth)
lasting at least `min_s` seconds; stretches separated by less than `merge_s` are merged. Upward
excursions are never drops. Step loads are cut into steps first (`segments`), and each step gets
its own baseline. For speed the rolling median runs over medians of blocks of samples, then is
interpolated back: 86,400 points take a few milliseconds.
"""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

BASELINE_S = 120.0  # drops up to about half of this stay below the median of their surroundings
# (depth, minimum duration s, z): a drop is deeper than `depth` x baseline AND than z robust sigmas
# of the series' own noise around its baseline, for at least the duration.
# Measured on real sysbench runs of this machine (TPS noise 13-22% of its level): z = 2 flags no
# stretch of an undisturbed run and finds 40-55% dips of 4 s and more.
SENSITIVITY = {"low": (0.45, 5.0, 3.0), "normal": (0.30, 3.0, 2.0), "high": (0.20, 2.0, 1.5)}


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


def baseline(t: np.ndarray, v: np.ndarray, window_s: float = BASELINE_S) -> np.ndarray:
    """Rolling median of v over window_s seconds centred on each sample (NaN-robust)."""
    n = len(v)
    if n == 0:
        return v.copy()
    step = float(np.median(np.diff(t))) if n > 1 else 1.0
    step = step if step > 0 else 1.0
    width = max(3, round(window_s / step))
    block = max(1, width // 24)  # medians of blocks, then a rolling median of those
    nb = -(-n // block)
    padded = np.full(nb * block, np.nan)
    padded[:n] = v
    with np.errstate(all="ignore"):
        coarse = np.nanmedian(padded.reshape(nb, block), axis=1)
    k = min(max(1, width // block) | 1, nb if nb % 2 else nb - 1)  # odd number of blocks
    half = k // 2
    with np.errstate(all="ignore"):
        rolled = np.full(nb, np.nan)
        if nb >= k:
            rolled[half : nb - half] = np.nanmedian(sliding_window_view(coarse, k), axis=1)
        # near the ends the window shrinks symmetrically: a warm-up ramp is compared with its
        # own neighbourhood, not with the level reached later
        for j in range(min(half, nb)):
            rolled[j] = np.nanmedian(coarse[: 2 * j + 1])
            rolled[nb - 1 - j] = np.nanmedian(coarse[nb - 1 - 2 * j :])
    centers = (np.arange(nb) * block + (block - 1) / 2.0)[: len(rolled)]
    ok = np.isfinite(rolled)
    if not ok.any():
        return np.full(n, np.nan)
    return np.interp(np.arange(n), centers[ok], rolled[ok])


def detect(
    t: np.ndarray,
    v: np.ndarray,
    sensitivity: str = "normal",
    merge_s: float = 2.0,
    segments: list[tuple[float, float]] | None = None,
) -> list[Drop]:
    """Drops of v(t), each segment (load step) on its own baseline."""
    depth, min_s, z = SENSITIVITY[sensitivity]
    t = np.asarray(t, np.float64)
    v = np.asarray(v, np.float64)
    order = np.argsort(t, kind="stable")
    t, v = t[order], v[order]
    if segments is None:
        segments = [(float(t[0]), float(t[-1]))] if len(t) else []
    drops: list[Drop] = []
    for lo, hi in segments:
        sel = (t >= lo) & (t <= hi)
        drops.extend(_detect_one(t[sel], v[sel], depth, min_s, merge_s, z))
    return sorted(drops, key=lambda d: d.start)


def _detect_one(t: np.ndarray, v: np.ndarray, depth: float, min_s: float, merge_s: float, z: float) -> list[Drop]:
    if len(t) < 5:
        return []
    base = baseline(t, v)
    step = float(np.median(np.diff(t)))
    with np.errstate(invalid="ignore"):
        resid = v - base
        calm = resid > -depth * base  # the noise is measured away from the candidate drops
        calm_resid = resid[calm] if calm.sum() >= 5 else resid
        sigma = float(np.nanmedian(np.abs(calm_resid - np.nanmedian(calm_resid)))) * 1.4826
        margin = np.maximum(depth * base, z * sigma)
        below = v < base - margin
    below &= np.isfinite(v) & (base > 0)
    if not below.any():
        return []
    with np.errstate(invalid="ignore"):
        soft = (v < base - 0.5 * margin) & np.isfinite(v)
    edges = np.diff(np.concatenate(([0], below.astype(np.int8), [0])))
    starts, stops = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    runs: list[list[int]] = []
    for first, last in zip(starts.tolist(), stops.tolist(), strict=True):
        if runs and t[first] - t[runs[-1][1]] <= merge_s + step:
            runs[-1][1] = last
        else:
            runs.append([first, last])
    out = []
    for a, b in runs:
        if float(t[b] - t[a] + step) < min_s:  # the duration is judged on the strict stretch
            continue
        # hysteresis: the edges extend while samples stay below half the margin
        while a > 0 and soft[a - 1]:
            a -= 1
        while b < len(v) - 1 and soft[b + 1]:
            b += 1
        start, end = float(t[a] - step), float(t[b])
        # the baseline of a drop is its surroundings' level, read just outside the drop
        ref = float(np.nanmedian(np.concatenate((base[max(0, a - 3) : a + 1], base[b : b + 4]))))
        during = v[a : b + 1]
        d = 1.0 - float(np.nanmedian(during)) / ref
        out.append(Drop(start, end, d, ref, float(np.nanmin(during)), d * (end - start)))
    return out


def steps_from_threads(t: np.ndarray, threads: np.ndarray) -> list[tuple[float, float]]:
    """Load steps of a benchmark from its thread-count series (changes of level)."""
    if len(t) == 0:
        return []
    cuts = np.flatnonzero(np.diff(threads) != 0) + 1
    bounds = np.concatenate(([0], cuts, [len(t)]))
    return [(float(t[a]), float(t[b - 1])) for a, b in itertools.pairwise(bounds) if b - a >= 3]
