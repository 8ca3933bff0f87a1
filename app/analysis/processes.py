"""The processes behind a CPU change (pidstat): which commands used more CPU during a window than
before it. The explanation ranks the machine's CPU shares; "CPU taken by another process" then
needs the process by name, which pidstat has (issue 24: a CPU hog's What changed listed %usr
five times and no process). A command's processes count as one (layout.command): six busy loops
of `sh` are one `sh` at 130 %."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.layout import command
from benchlens.app.model import RunData, SeriesRef


@dataclass(frozen=True)
class ProcessParams:
    # the reference before the window: at most this many seconds of it; chosen by hand
    before_s: float = 60.0
    # a command is named when its CPU rose by at least this many points (one busy loop on one of
    # the corpus' 2 vCPUs is 50-100); chosen by hand
    min_rise: float = 10.0
    top: int = 3


PROCESSES = ProcessParams()


@dataclass(frozen=True)
class ProcessChange:
    command: str
    before: float  # mean %CPU before the window (0 when it did not run)
    during: float


def process_changes(
    data: RunData, run_id: int, window: tuple[float, float], params: ProcessParams = PROCESSES
) -> list[ProcessChange]:
    """The commands whose %CPU (pidstat, their processes summed) rose most during `window`
    (epoch s) against the `before_s` seconds before it, by at least `min_rise` points."""
    t0, t1 = window
    names = sorted({command(r.entity) for r in data.available(run_id) if r.format == "pidstat" and r.metric == "%CPU"})
    out = []
    for name in filter(None, names):
        got = data.data(run_id, SeriesRef("pidstat", "%CPU", name))
        if got is None:
            continue
        t, v = got
        v = np.where(np.isfinite(v), v, 0.0)  # pidstat leaves out a task that did not run: 0 %
        during = v[(t > t0) & (t <= t1)]
        before = v[(t > t0 - params.before_s) & (t <= t0)]
        rise = (float(during.mean()) if len(during) else 0.0) - (float(before.mean()) if len(before) else 0.0)
        if len(during) and rise >= params.min_rise:
            out.append(ProcessChange(name, float(before.mean()) if len(before) else 0.0, float(during.mean())))
    return sorted(out, key=lambda c: c.before - c.during)[: params.top]
