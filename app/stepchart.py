"""The step-load chart's data, without Qt: TPS and latency against concurrency, one line per
step-load run (a point per load step), a fixed-concurrency run as one point. app/render.py
draws it (`draw_steps`, and `export`/`to_image` like any figure); `benchlens export --steps`
writes it as PNG, SVG, PDF or CSV.

The numbers are the Summary's "Load steps" table (app/analysis/summary.py `load_steps`): the
medians of TPS and of the logged latency percentile over each step's steady part, so the chart,
the table and its copy agree. A fixed-concurrency run is one step of the same rule (levels=1)."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from benchlens.app.analysis.summary import load_steps
from benchlens.app.errors import AnalysisError
from benchlens.app.model import Run, RunData


@dataclass(frozen=True)
class StepPoint:
    threads: float
    tps: float  # median over the step's steady part
    latency: float  # median of the logged latency percentile (ms), NaN when the log has none


@dataclass(frozen=True)
class RunPoints:
    run: Run
    points: list[StepPoint]  # in thread-count order; a level run twice keeps its first step
    fixed: bool  # one concurrency for the whole run: drawn as a point, not a line
    latency: str  # what the latency is, e.g. "p95 ms" ('' when the log has none)


@dataclass
class StepChart:
    title: str
    runs: list[Run]
    lines: list[RunPoints]

    @property
    def latency(self) -> str:
        """The latency the runs log, e.g. 'p95 ms' (the first that has one)."""
        return next((ln.latency for ln in self.lines if ln.latency), "")


def step_chart(data: RunData, run_ids: list[int], title: str | None = None) -> StepChart:
    """The chart of these runs: each with a benchmark log and a thread count (sysbench, dbstress,
    tpcc), a line when it is a step load, a point when it ran at one concurrency."""
    runs = [data.run(r) for r in run_ids]
    lines = []
    for run in runs:
        st = load_steps(data, run.id, levels=1)
        if st is None:
            continue
        points: dict[float, StepPoint] = {}
        for s in st.steps:
            if s.threads > 0 and math.isfinite(s.tps_median):
                points.setdefault(s.threads, StepPoint(s.threads, s.tps_median, s.lat_median))
        if points:
            pts = [points[k] for k in sorted(points)]
            lines.append(RunPoints(run, pts, len(pts) == 1, st.latency))
    if not lines:
        names = ", ".join(r.name for r in runs)
        raise AnalysisError(f"no benchmark log with a thread count (sysbench, dbstress, tpcc) in {names}")
    name = title if title is not None else "Throughput and latency by concurrency: " + " vs ".join(r.name for r in runs)
    return StepChart(name, runs, lines)


def csv_rows(chart: StepChart) -> Iterator[list[str]]:
    """One row per point: the run, the thread count, TPS and latency (medians), and whether the
    run is a step load or ran at one concurrency."""
    yield ["run", "threads", "tps", f"latency ({chart.latency})" if chart.latency else "latency", "load"]
    for ln in chart.lines:
        for p in ln.points:
            lat = "" if math.isnan(p.latency) else repr(p.latency)
            yield [ln.run.name, f"{p.threads:g}", repr(p.tps), lat, "fixed" if ln.fixed else "steps"]


def write_csv(chart: StepChart, out: Path) -> None:
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(csv_rows(chart))
