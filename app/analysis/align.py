"""Time alignment of runs in a comparison: x = t - base(run) + offset(run) (+ the side-by-side
shift). One implementation for the window, the exporter and the CSV."""

from __future__ import annotations

from typing import Any

import numpy as np

ALIGN_MODES = {
    "run": "relative to run start",
    "bench": "relative to benchmark start",
    "absolute": "absolute clock",
}


def base(run: dict[str, Any], mode: str) -> float:
    if mode == "absolute":
        return 0.0
    if mode == "bench" and run.get("bench_start") is not None:
        return float(run["bench_start"])
    return float(run.get("start") or 0.0)


def side_shift(runs: list[dict[str, Any]], run_id: int, offsets: dict[int, float]) -> float:
    """Side by side: runs one after the other on the shared axis, a small gap between them."""
    shift = 0.0
    for run in runs:
        if run["id"] == run_id:
            return shift
        shift += offsets.get(run["id"], 0.0)  # a run shifted right pushes the next one too
        shift += float((run.get("end") or 0) - (run.get("start") or 0)) * 1.05 + 1
    return shift


def x_of(
    runs: list[dict[str, Any]], run_id: int, t: np.ndarray, mode: str, offsets: dict[int, float], side: bool
) -> np.ndarray:
    """The plotted x of times t of one of `runs` (the runs of the comparison, in order)."""
    run = next(r for r in runs if r["id"] == run_id)
    x = t - base(run, mode) + offsets.get(run_id, 0.0)
    if side and mode != "absolute":
        x = x + side_shift(runs, run_id, offsets)
    return x
