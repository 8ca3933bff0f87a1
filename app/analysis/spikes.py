"""A spike that would flatten a latency panel: the demo's small-buffer-pool run has one p95 of
2,932 ms among values of 5-20 ms; drawn to scale, the usual range is a line on "0 s". Such a
panel is drawn up to the usual range (`clip_top`) and each clipped peak is marked with its value
(`peaks`) where it leaves the panel; the panel's menu offers a log scale for the whole of it. The
data itself is never clipped: the readout, the CSV and the analysis read the true values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SpikeParams:
    # the usual range: this quantile of the panel's values over the shown window; a spike lasting
    # up to 5 % of the run (12 min of a 4 h run) is left out of it, a stall longer than that is
    # the run's story and drawn to scale. Chosen by hand on the demo and the corpus' lock runs
    quantile: float = 0.95
    # room above the usual range, so its own peaks are not cut
    headroom: float = 1.5
    # a spike: a value this many times above the room; the panel is cut just above its highest
    # other value (a peak 2-3x the usual range reads well to scale)
    dominates: float = 3.0
    # a quantile of fewer samples says nothing
    min_samples: int = 20
    # peaks marked per panel, the highest: more would cover the curves
    marks: int = 3


SPIKES = SpikeParams()


def clip_top(values: Sequence[np.ndarray], params: SpikeParams = SPIKES) -> float | None:
    """Where to cut a panel whose values (every line's, in the shown window) hold a spike that
    dominates them; None to draw it all."""
    v = np.concatenate(list(values)) if values else np.zeros(0)
    # the quantile from at most 20,000 samples evenly spread (4 ms for two 24 h series else); the
    # extremes from all of them: a lone spike is one sample
    some = v[:: max(1, len(v) // 20_000)]
    some = some[np.isfinite(some)]
    if len(some) < params.min_samples:
        return None
    spike = float(np.quantile(some, params.quantile)) * params.headroom * params.dominates
    if not spike > 0 or not float(np.nanmax(v)) > spike:
        return None
    return float(np.nanmax(np.where(v <= spike, v, np.nan))) * 1.05  # all but the spikes to scale


def peaks(
    x: np.ndarray, y: np.ndarray, top: float, apart: float = 0.0, params: SpikeParams = SPIKES
) -> list[tuple[float, float]]:
    """(x, value) of the highest sample of each stretch above `top`, the highest `marks` of them
    at least `apart` from each other (a mark's width: a higher peak's mark already says it)."""
    above = np.concatenate(([False], np.isfinite(y) & (y > top), [False]))
    edges = np.flatnonzero(np.diff(above.view(np.int8)))
    found = []
    for a, b in zip(edges[0::2], edges[1::2], strict=True):
        k = a + int(np.argmax(y[a:b]))
        found.append((float(x[k]), float(y[k])))
    kept: list[tuple[float, float]] = []
    for px, py in sorted(found, key=lambda p: -p[1]):
        if len(kept) < params.marks and all(abs(px - q) >= apart for q, _ in kept):
            kept.append((px, py))
    return kept
