"""Why is this window slow: explain any span of a run (one the user selected, not a detected drop)
the way a drop is explained, against the run's steady state: its benchmark interval with the
warm-up, the detected drops and the window itself left out, or a reference span of one's own."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial

import numpy as np

from benchlens.app.analysis.drops import Drop, detection
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import Reference, classes, explain, reference_values, verdict, window_level
from benchlens.app.analysis.run_drops import latency_rises, steady_reference, throughput
from benchlens.app.analysis.summary import Window
from benchlens.app.errors import AnalysisError
from benchlens.app.model import RunData


@dataclass(frozen=True)
class WindowExplanation:
    start: float  # epochs
    end: float
    work: float  # throughput in the window / steady throughput (NaN without a throughput series)
    reference: Reference
    explain: list[Change]

    def classes(self) -> list[str]:
        return classes(self.explain)

    def verdict(self) -> str:
        return verdict(self.explain)

    def as_json(self) -> dict[str, object]:
        return {
            "from": self.start,
            "to": self.end,
            "work": self.work,
            "against": {"from": self.reference.lo, "to": self.reference.hi},
            "verdict": self.verdict(),
            "classes": self.classes(),
            "explain": [c.as_json() for c in self.explain],
        }


def explain_window(
    data: RunData,
    run_id: int,
    x: tuple[float, float],
    align: str = "run",
    against: tuple[float, float] | None = None,
    top: int = 5,
) -> WindowExplanation:
    """What changed in the window x (axis units of `align`) against the steady state, or against
    the span `against` (same units)."""
    run = data.run(run_id)
    start, end = Window(*x, align).t_range([run], run_id)
    if not (math.isfinite(start) and math.isfinite(end)):
        raise AnalysisError("the window must have both ends")
    ref_series = throughput(data, run_id)
    series = data.data(run_id, ref_series) if ref_series is not None else None
    if ref_series is not None and series is not None:
        t, v = np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)
        # the drops the throughput proves are no steady state, nor the latency rises their series
        # proves (a rate-limited driver's queue draining after a stall: the throughput above its
        # rate, the CPU busy, held-out net-congest-short-tpccrated), nor that burst where no latency
        # is in the folder (Detection.bursts); a candidate neither proves is noise, as far as the
        # reference of a window chosen by the reader goes
        detected = detection(t, v)
        proven = [d for d in detected.drops if d.tested] + detected.bursts
        proven += [r for r in latency_rises(data, run_id, ref_series)[1] if r.tested]
        reference = steady_reference(t, v, [*proven, Drop(start, end, 0.0, 0.0, 0.0, 0.0)])
        if not len(reference_values(v, t, reference)):
            # the steady state is all inside the window (the throughput only began in it: a lock
            # wait that blocked a workload arriving in it, DBPA's lock_waits): the rest of the run
            reference = Reference(run.start or -math.inf, run.end or math.inf, ((start, end),))
    else:
        t = v = np.zeros(0)
        reference = Reference(run.start or -math.inf, run.end or math.inf, ((start, end),))
    if against is not None:
        lo, hi = Window(*against, align).t_range([run], run_id)
        reference = Reference(lo, hi, ((start, end),))
    work = _work(t, v, start, end, reference)
    reference = Reference(reference.lo, reference.hi, reference.exclude, work if math.isfinite(work) else 1.0)
    others = [r for r in data.available(run_id) if ref_series is None or r.format != ref_series.format]
    span = Drop(start, end, 0.0, 0.0, 0.0, 0.0)
    changes = explain(span, others, partial(data.data, run_id), top, reference=reference)
    return WindowExplanation(start, end, work, reference, changes)


def _work(t: np.ndarray, v: np.ndarray, start: float, end: float, reference: Reference) -> float:
    """Throughput in the window over its steady level."""
    if not len(t):
        return math.nan
    steady = reference_values(v, t, reference)
    level = float(np.median(steady)) if len(steady) else math.nan
    during = window_level(t, v, start, end)
    return during / level if level > 0 else math.nan
