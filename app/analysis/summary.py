"""Summaries of a comparison over a time window (Qt-free): the tables a performance write-up quotes.

The window is a stretch of the comparison's x axis, in its alignment (seconds from run start, from
benchmark start, or epochs on the absolute clock; per-run offsets and side by side included), so
each run is cut at its own times (`Window.t_range`). Everything is computed on the stored samples
in that window, NaN-aware: a gap (NaN) is neither a value nor counted.

- Statistics per run and series: n (finite samples), mean, median, p95, min, max.
- B vs A (the first two runs): mean, median and p95 side by side with the change in percent,
  (B - A) / |A| x 100. No change is given when either run has no sample of the series in the
  window; when A is 0 the change is 0 % if B is 0 too, else undefined and shown as "A=0".
- Top waits per run, side by side: Performance Schema wait time (`SUM_TIMER_WAIT`, ms of wait per
  second) and InnoDB mutex waits (`os_waits`, or `waits` from 5.7 on; 1/s), idle and background
  waits left out (app/analysis/idle.py), each averaged over the window. The rows are the union of
  every run's top N, ordered by the larger of the runs' rates; a wait a run never reported counts
  0 there (both tools omit zero rows). Each rate is also given as a share of the run's total wait
  in the window.
- Throughput stability per run, side by side: coefficient of variation, share of reports under half
  the median, p1 and p5 of the benchmark's throughput in the window, its warm-up left out
  (app/analysis/stability.py).
- Load steps (a step load: the benchmark re-run at 1, 2, 4 ... threads): TPS (median and mean) and
  latency (median of the logged percentile) per step over its steady part, for runs whose
  benchmark log has at least two thread counts (app/analysis/steps.py).

One table model (app/analysis/tables.py) feeds every output: plain text, Markdown, CSV and JSON.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from benchlens.app.analysis.align import ALIGN_MODES, x_of
from benchlens.app.analysis.drops import steady_span
from benchlens.app.analysis.idle import is_idle_wait
from benchlens.app.analysis.layout import THROUGHPUT_FORMATS, layout_for_runs
from benchlens.app.analysis.run_drops import throughput
from benchlens.app.analysis.stability import Stability, stability
from benchlens.app.analysis.steps import STEPS, Step, log_runs, per_step
from benchlens.app.analysis.tables import Cell, Column, Table, finite, to_csv, to_markdown, to_text
from benchlens.app.model import Run, RunData, SeriesRef

TOP_N = 10  # waits per run in the tables (the chart panel shows layout.TOP_WAITS)
# (format, metrics, title): the wait series, as the default layout's top-waits panel picks them
WAITS = (
    ("perfschema", ("SUM_TIMER_WAIT",), "Top waits: Performance Schema wait time"),
    ("innodb_mutex", ("os_waits", "waits"), "Top waits: InnoDB mutexes"),
)
STATEMENTS = ("SEL1", "SEL2", "UPD", "DEL", "INS")  # dbSTRESS response times: the first SELECT leads


# ---- the window ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Window:
    """x0..x1 on the comparison's axis (None: open at that end), with its alignment."""

    x0: float | None = None
    x1: float | None = None
    align: str = "run"
    offsets: dict[int, float] = field(default_factory=dict, hash=False)
    side_by_side: bool = False

    def t_range(self, runs: list[Run], run_id: int) -> tuple[float, float]:
        """The window in one run's own times (epoch s)."""
        shift = float(x_of(runs, run_id, np.zeros(1), self.align, self.offsets, self.side_by_side)[0])
        lo = -math.inf if self.x0 is None else self.x0 - shift
        hi = math.inf if self.x1 is None else self.x1 - shift
        return lo, hi

    def describe(self) -> str:
        if self.x0 is None and self.x1 is None:
            return f"whole runs ({ALIGN_MODES.get(self.align, self.align)})"
        ends = [_x_text(x, self.align) for x in (self.x0, self.x1)]
        return f"{ends[0]} to {ends[1]} ({ALIGN_MODES.get(self.align, self.align)})"


def _x_text(x: float | None, align: str) -> str:
    if x is None:
        return "start" if align != "absolute" else "the start"
    if align == "absolute":
        from datetime import UTC, datetime

        return datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{x:.1f} s"


def in_window(t: np.ndarray, v: np.ndarray, t0: float, t1: float) -> np.ndarray:
    """The values sampled at t0 <= t <= t1 (t ascending, as the library returns it)."""
    a = int(np.searchsorted(t, t0, side="left"))
    b = int(np.searchsorted(t, t1, side="right"))
    return v[a:b]


# ---- statistics ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Stats:
    n: int
    mean: float
    median: float
    p95: float
    min: float
    max: float

    @classmethod
    def of(cls, v: np.ndarray) -> Stats:
        v = np.asarray(v, np.float64)
        v = v[np.isfinite(v)]
        if not len(v):
            nan = math.nan
            return cls(0, nan, nan, nan, nan, nan)
        return cls(
            len(v),
            float(np.mean(v)),
            float(np.median(v)),
            float(np.percentile(v, 95)),
            float(np.min(v)),
            float(np.max(v)),
        )


STAT_NAMES = ("mean", "median", "p95", "min", "max")


@dataclass(frozen=True)
class SeriesStats:
    ref: SeriesRef
    unit: str
    runs: dict[int, Stats]  # only the runs that have the series


def change(a: float, b: float) -> float | str | None:
    """B vs A in percent: (B - A) / |A| x 100; None without data, "A=0" when it is undefined."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    if a == 0:
        return 0.0 if b == 0 else "A=0"
    return (b - a) / abs(a) * 100.0


# ---- top waits -------------------------------------------------------------------------------
@dataclass(frozen=True)
class WaitRow:
    entity: str
    rate: dict[int, float]  # mean over the window; NaN: the run has no such series at all
    share: dict[int, float]  # fraction of the run's total wait in the window
    rank: dict[int, int]  # 1 = the run's biggest wait (absent: not among its waits)


@dataclass(frozen=True)
class WaitTable:
    format: str
    metric: str
    title: str
    unit: str
    top: int
    rows: list[WaitRow]


def top_waits(
    data: RunData, run_ids: Sequence[int], t_ranges: dict[int, tuple[float, float]], top: int = TOP_N
) -> list[WaitTable]:
    tables = []
    for fmt, metrics, title in WAITS:
        have = {r: {ref for ref in data.available(r) if ref.format == fmt} for r in run_ids}
        metric = next((m for m in metrics for r in run_ids if any(x.metric == m for x in have[r])), None)
        if metric is None:
            continue
        rates: dict[int, dict[str, float]] = {}
        unit = ""
        for r in run_ids:
            refs = [x for x in have[r] if x.metric == metric and not is_idle_wait(x.entity)]
            if not refs:
                continue
            rates[r] = {}
            for ref in refs:
                d = data.data(r, ref)
                vals = in_window(d[0], d[1], *t_ranges[r]) if d is not None else np.zeros(0)
                finite = vals[np.isfinite(vals)]
                rates[r][ref.entity] = float(finite.mean()) if len(finite) else 0.0
                unit = unit or data.unit(r, ref)
        ranks = {r: _ranks(rates[r]) for r in rates}
        chosen = {e for r in rates for e, k in ranks[r].items() if k <= top}
        rows = []
        for e in chosen:
            rate = {r: (rates[r].get(e, 0.0) if r in rates else math.nan) for r in run_ids}
            share = {}
            for r in rates:
                total = math.fsum(rates[r].values())  # exact: the same whatever order the set gives
                share[r] = rate[r] / total if total > 0 else math.nan
            rows.append(WaitRow(e, rate, share, {r: ranks[r][e] for r in rates if e in ranks[r]}))
        rows.sort(key=lambda w: (-max((x for x in w.rate.values() if math.isfinite(x)), default=0.0), w.entity))
        tables.append(WaitTable(fmt, metric, title, unit, top, rows))
    return tables


def _ranks(rates: dict[str, float]) -> dict[str, int]:
    """1 for the biggest rate; waits that never happened in the window get no rank."""
    order = sorted((e for e, v in rates.items() if v > 0), key=lambda e: (-rates[e], e))
    return {e: k + 1 for k, e in enumerate(order)}


# ---- load steps ------------------------------------------------------------------------------
@dataclass(frozen=True)
class RunSteps:
    format: str
    latency: str  # what the latency column is, e.g. "p95 ms"
    steps: list[Step]


def load_steps(
    data: RunData, run_id: int, t0: float = -math.inf, t1: float = math.inf, levels: int = 2
) -> RunSteps | None:
    """TPS and latency per load step of a run (None unless it has at least `levels` thread counts;
    levels=1: a fixed-concurrency run's one step too)."""
    available = set(data.available(run_id))
    fmt = next(
        (s for s in THROUGHPUT_FORMATS if SeriesRef(s, "tps") in available and SeriesRef(s, "thds") in available),
        None,
    )
    if fmt is None:
        return None
    thd = data.data(run_id, SeriesRef(fmt, "thds"))
    tps = data.data(run_id, SeriesRef(fmt, "tps"))
    if thd is None or tps is None or not len(thd[0]):
        return None
    runs = None
    metas = data.source_meta(run_id, fmt)
    if fmt == "sysbench" and len(metas) == 1:  # several logs merged: their seconds are not one clock
        runs = log_runs(metas[0].log_runs, float(thd[0][-1]))
    lat_refs = sorted(
        (r for r in available if r.format == fmt and r.metric in ("lat_ms", "rt_ms")),
        key=lambda r: (r.metric != "lat_ms", STATEMENTS.index(r.entity) if r.entity in STATEMENTS else 99, r.entity),
    )
    steps = per_step(thd, tps, data.data(run_id, lat_refs[0]) if lat_refs else None, runs, t0, t1, levels=levels)
    if steps is None:
        return None
    latency = ""
    if lat_refs:
        e = lat_refs[0].entity
        latency = f"p{e} ms" if e.replace(".", "").isdigit() else f"{e} ms".strip()
    return RunSteps(fmt, latency, steps)


# ---- the summary -----------------------------------------------------------------------------
@dataclass(frozen=True)
class RunWindow:
    """A run of the summary and the window in its own times (epoch s)."""

    id: int
    name: str
    t0: float
    t1: float


@dataclass
class Summary:
    window: Window
    runs: list[RunWindow]
    stats: list[SeriesStats]
    waits: list[WaitTable]
    steps: dict[int, RunSteps]
    stability: dict[int, Stability] = field(default_factory=dict)

    def name(self, run_id: int) -> str:
        return str(next(r.name for r in self.runs if r.id == run_id))

    def tables(self) -> list[Table]:
        out = [stats_table(self)]
        if len(self.runs) >= 2:
            out.append(diff_table(self))
        if self.stability:
            out.append(stability_table(self))
        out.extend(wait_table(self, w) for w in self.waits)
        if self.steps:
            out.append(steps_table(self))
            if len(self.runs) >= 2 and all(r.id in self.steps for r in self.runs[:2]):
                out.append(steps_diff_table(self))
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "window": {"from": self.window.x0, "to": self.window.x1, "align": self.window.align},
            "runs": [{"id": r.id, "name": r.name, "t0": finite(r.t0), "t1": finite(r.t1)} for r in self.runs],
            "tables": [t.as_json() for t in self.tables()],
        }


def series_refs(data: RunData, run_ids: Sequence[int], specs: Iterable[str] = ()) -> list[SeriesRef]:
    """The series to summarise: each SPEC as SOURCE:METRIC[:ENTITY] (no entity: every entity of
    that metric unless the bare one exists; no source: any source with that metric), else the
    default layout's series."""
    have: list[SeriesRef] = sorted({ref for r in run_ids for ref in data.available(r)})
    out: list[SeriesRef] = []
    for spec in specs:
        if ":" not in spec:
            found = [x for x in have if x.metric == spec]
        else:
            ref = SeriesRef.parse(spec)
            if ref in have:
                found = [ref]
            elif spec.count(":") == 1:
                found = [x for x in have if (x.format, x.metric) == (ref.format, ref.metric)]
            else:
                found = []
        if not found:
            raise ValueError(f"no series {spec!r} in the runs")
        out.extend(x for x in found if x not in out)
    if out:
        return out
    panels = layout_for_runs(run_ids, data.available, data.data)
    for p in panels:
        out.extend(x for x in p.refs if x not in out)
    return out


def summarize(
    data: RunData, run_ids: Sequence[int], window: Window, refs: Sequence[SeriesRef], top: int = TOP_N
) -> Summary:
    runs = [data.run(r) for r in run_ids]
    t_ranges = {r.id: window.t_range(runs, r.id) for r in runs}
    stats = []
    for ref in refs:
        per_run: dict[int, Stats] = {}
        unit = ""
        for r in run_ids:
            d = data.data(r, ref)
            if d is None:
                continue
            per_run[r] = Stats.of(in_window(d[0], d[1], *t_ranges[r]))
            unit = unit or data.unit(r, ref)
        if per_run:
            stats.append(SeriesStats(ref, unit, per_run))
    steps = {}
    for r in run_ids:
        s = load_steps(data, r, *t_ranges[r])
        if s is not None:
            steps[r] = s
    return Summary(
        window,
        [RunWindow(r.id, r.name, *t_ranges[r.id]) for r in runs],
        stats,
        top_waits(data, run_ids, t_ranges, top),
        steps,
        {r: st for r in run_ids if (st := run_stability(data, r, *t_ranges[r])) is not None},
    )


def run_stability(data: RunData, run_id: int, t0: float, t1: float) -> Stability | None:
    """Stability of the run's throughput in t0..t1, its warm-up left out (None without one)."""
    ref = throughput(data, run_id)
    series = data.data(run_id, ref) if ref is not None else None
    if series is None or not len(series[0]):
        return None
    t, v = np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)
    lo, hi = steady_span(t, v)
    return stability(t, v, max(t0, lo + 1e-9), min(t1, hi))


def stability_table(s: Summary) -> Table:
    cols = [Column("run", "text"), Column("n", "int"), Column("median"), Column("mean"), Column("cv")]
    cols += [Column("under half", "share"), Column("p1"), Column("p5")]
    rows: list[list[Cell]] = []
    for r in s.runs:
        x = s.stability.get(r.id)
        if x is not None:
            rows.append([r.name, x.n, x.median, x.mean, x.cv, x.under_half * 100, x.p1, x.p5])
    return Table(
        "stability",
        "Throughput stability",
        cols,
        rows,
        "Over the window, the warm-up left out: cv = standard deviation / mean; under half: share of "
        "reports below half the median (of the reports above 0 when the median is 0); p1, p5: percentiles "
        "of the throughput.",
    )


def _label(ref: SeriesRef) -> str:
    return ref.spec()


def stats_table(s: Summary) -> Table:
    cols = [Column("series", "text"), Column("unit", "text"), Column("run", "text"), Column("n", "int")]
    cols += [Column(n) for n in STAT_NAMES]
    rows: list[list[Cell]] = []
    for st in s.stats:
        for r in s.runs:
            x = st.runs.get(r.id)
            if x is not None:
                rows.append([_label(st.ref), st.unit, r.name, x.n, x.mean, x.median, x.p95, x.min, x.max])
    return Table("stats", "Statistics", cols, rows, f"Window: {s.window.describe()}; n counts samples, gaps excluded.")


def _ab(s: Summary) -> tuple[RunWindow, RunWindow]:
    return s.runs[0], s.runs[1]


def diff_table(s: Summary) -> Table:
    a, b = _ab(s)
    cols = [Column("series", "text"), Column("unit", "text")]
    for n in ("mean", "median", "p95"):
        cols += [Column(f"{n} A"), Column(f"{n} B"), Column(f"Δ {n}", "pct")]
    rows: list[list[Cell]] = []
    nan = Stats.of(np.zeros(0))
    for st in s.stats:
        sa, sb = st.runs.get(a.id, nan), st.runs.get(b.id, nan)
        row: list[Cell] = [_label(st.ref), st.unit]
        for n in ("mean", "median", "p95"):
            va, vb = getattr(sa, n), getattr(sb, n)
            row += [va, vb, change(va, vb)]
        rows.append(row)
    return Table(
        "diff",
        "B vs A",
        cols,
        rows,
        f"A = {a.name}, B = {b.name}; Δ = (B − A) / |A|; empty without data, A=0 when A is 0 and B is not.",
    )


def wait_table(s: Summary, w: WaitTable) -> Table:
    shown = s.runs[:2]
    tags = ["A", "B"] if len(shown) == 2 else [""]
    cols = [Column("wait", "text")]
    for tag in tags:
        sp = f" {tag}" if tag else ""
        cols += [Column(f"rank{sp}", "int"), Column(f"{w.unit}{sp}"), Column(f"share{sp}", "share")]
    if len(shown) == 2:
        cols.append(Column("Δ", "pct"))
    rows: list[list[Cell]] = []
    for row in w.rows:
        cells: list[Cell] = [row.entity]
        for r in shown:
            share = row.share.get(r.id, math.nan)
            cells += [row.rank.get(r.id), row.rate[r.id], share * 100 if math.isfinite(share) else None]
        if len(shown) == 2:
            cells.append(change(row.rate[shown[0].id], row.rate[shown[1].id]))
        rows.append(cells)
    who = f"A = {shown[0].name}, B = {shown[1].name}" if len(shown) == 2 else shown[0].name
    return Table(
        f"waits:{w.format}",
        w.title,
        cols,
        rows,
        f"{w.format}:{w.metric} averaged over the window ({who}); the union of each run's top {w.top}, "
        "ordered by the larger rate; share: of the run's total wait.",
    )


def steps_table(s: Summary) -> Table:
    lat = next((st.latency for st in s.steps.values() if st.latency), "latency")
    cols = [
        Column("run", "text"),
        Column("step", "int"),
        Column("threads", "int"),
        Column("n", "int"),
        Column("tps median"),
        Column("tps mean"),
        Column(f"lat {lat}" if lat != "latency" else "latency"),
    ]
    rows: list[list[Cell]] = []
    for r in s.runs:
        st = s.steps.get(r.id)
        for step in st.steps if st else []:
            rows.append(
                [r.name, step.index, _int(step.threads), step.n, step.tps_median, step.tps_mean, step.lat_median]
            )
    return Table(
        "steps",
        "Load steps",
        cols,
        rows,
        f"Over each step's steady part: the first {STEPS.warmup:.0%} and reports with fewer threads left out.",
    )


def steps_diff_table(s: Summary) -> Table:
    a, b = _ab(s)
    by: dict[int, dict[float, Step]] = {r.id: {} for r in (a, b)}
    for r in (a, b):
        for step in s.steps[r.id].steps:
            by[r.id].setdefault(step.threads, step)  # a level run twice: its first step
    cols = [Column("threads", "int"), Column("tps A"), Column("tps B"), Column("Δ tps", "pct")]
    cols += [Column("lat A"), Column("lat B"), Column("Δ lat", "pct")]
    rows: list[list[Cell]] = []
    for level in sorted(set(by[a.id]) | set(by[b.id])):
        sa, sb = by[a.id].get(level), by[b.id].get(level)
        ta, tb = (sa.tps_median if sa else math.nan), (sb.tps_median if sb else math.nan)
        la, lb = (sa.lat_median if sa else math.nan), (sb.lat_median if sb else math.nan)
        rows.append([_int(level), ta, tb, change(ta, tb), la, lb, change(la, lb)])
    return Table("steps-diff", "Load steps, B vs A", cols, rows, f"A = {a.name}, B = {b.name}; medians per step.")


def _int(x: float) -> int | float:
    return int(x) if math.isfinite(x) and x == int(x) else x


FORMATS = ("text", "markdown", "csv", "json")


def render(summary: Summary, fmt: str) -> str:
    """The summary in one of FORMATS (json: window, runs and every table as records)."""
    if fmt == "json":
        import json

        return json.dumps(summary.as_json(), indent=1, ensure_ascii=False) + "\n"
    return {"text": to_text, "markdown": to_markdown, "csv": to_csv}[fmt](summary.tables())
