"""Time alignment of runs in a comparison: x = t - base(run) + offset(run) (+ the side-by-side
shift). One implementation for the window, the exporter and the CSV."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.model import Run

ALIGN_MODES = {
    "run": "relative to run start",
    "bench": "relative to benchmark start",
    "absolute": "absolute clock",
}


def base(run: Run, mode: str) -> float:
    if mode == "absolute":
        return 0.0
    if mode == "bench" and run.bench_start is not None:
        return float(run.bench_start)
    return float(run.start or 0.0)


@dataclass(frozen=True)
class SideBySide:
    """Side by side, each run takes its length x `length_factor` + `gap_s` on the axis: a small
    gap after it, and some room between runs of no length."""

    length_factor: float = 1.05  # chosen by hand for the look, not measured
    gap_s: float = 1.0  # chosen by hand for the look, not measured


SIDE_BY_SIDE = SideBySide()


def side_shift(runs: list[Run], run_id: int, offsets: dict[int, float], side: SideBySide = SIDE_BY_SIDE) -> float:
    """Side by side: runs one after the other on the shared axis, a small gap between them."""
    shift = 0.0
    for run in runs:
        if run.id == run_id:
            return shift
        shift += offsets.get(run.id, 0.0)  # a run shifted right pushes the next one too
        shift += float((run.end or 0) - (run.start or 0)) * side.length_factor + side.gap_s
    return shift


def x_of(runs: list[Run], run_id: int, t: np.ndarray, mode: str, offsets: dict[int, float], side: bool) -> np.ndarray:
    """The plotted x of times t of one of `runs` (the runs of the comparison, in order)."""
    run = next(r for r in runs if r.id == run_id)
    x = t - base(run, mode) + offsets.get(run_id, 0.0)
    if side and mode != "absolute":
        x = x + side_shift(runs, run_id, offsets)
    return x
