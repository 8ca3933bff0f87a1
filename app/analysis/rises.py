"""Latency rises: stretches where a latency series stands at twice its steady level or more (the
issue's "latency x2 or more"), each load step on its own level. Annotated as their own kind: a
workload spike shows as a latency rise while the throughput holds."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.drops import (
    DETECT,
    DetectParams,
    Drop,
    low_edges,
    merged_stretches,
    moving_average,
    sample_step,
    segmented,
    smoothing,
    steady_state,
)


@dataclass(frozen=True)
class RiseParams:
    # a latency this many times its steady level or more is a rise (the "x2 or more")
    factor: float = 2.0
    # seconds it must last; as the normal sensitivity's drops
    min_s: float = 3.0


RISE = RiseParams()


def rises(
    t: np.ndarray,
    v: np.ndarray,
    params: RiseParams = RISE,
    detect_params: DetectParams = DETECT,
    segments: list[tuple[float, float]] | None = None,
) -> list[Drop]:
    """Latency rises of v(t): stretches at params.factor x the steady latency or more, each load
    step (`segments`) on its own level: the latency a step load's next thread count brings is the
    saturation it measures, not a rise."""
    out: list[Drop] = []
    for ts, vs in segmented(t, v, segments):
        out.extend(_rises_one(ts, vs, params, detect_params))
    return sorted(out, key=lambda d: d.start)


def _rises_one(t: np.ndarray, v: np.ndarray, params: RiseParams, detect_params: DetectParams) -> list[Drop]:
    if len(t) < detect_params.min_samples:
        return []
    step = sample_step(t)
    w = smoothing(v, detect_params)
    s = moving_average(v, w)
    base = steady_state(t, s, 0.0, w, detect_params, upward=True).base
    with np.errstate(invalid="ignore"):
        high = (s >= params.factor * base) & (base > 0)
        raw_high = v >= params.factor * base
    out = []
    for a, b in merged_stretches(t, high, detect_params.merge_s + step):
        if float(t[b] - t[a] + step) < params.min_s:
            continue
        a, b = low_edges(raw_high, a, b)
        ref = float(np.nanmedian(base[a : b + 1]))
        ratio = float(np.nanmedian(v[a : b + 1])) / ref - 1.0
        start, end = float(t[a] - step), float(t[b])
        out.append(Drop(start, end, max(0.0, ratio), ref, float(np.nanmax(v[a : b + 1])), 0.0, "latency"))
    return out
