"""The data of a figure, gathered from the library without Qt: the runs' series aligned on the
shared time axis, their units and the detected drops. app/render.py draws it; the CSV writes it.

`Comparison` is what the window shows (runs, panels, alignment, offsets, time window) and what a
saved view stores; `figure_of` turns one into a Figure for the export dialog, the clipboard and
`benchlens export` alike."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from benchlens.app.analysis.align import ALIGN_MODES, x_of
from benchlens.app.analysis.heatmap import SharedX, as_lines, members
from benchlens.app.analysis.innodb import is_checkpoint_age, run_flush_points
from benchlens.app.analysis.layout import Panel, blog_for_runs, layout_for_runs
from benchlens.app.analysis.mechanism import worth_saying
from benchlens.app.analysis.run_drops import Findings, decided_label, explained_classes, run_findings, throughput
from benchlens.app.analysis.summary import load_steps
from benchlens.app.errors import AnalysisError
from benchlens.app.model import Run, RunData, SeriesRef


@dataclass
class Comparison:
    runs: list[int] = field(default_factory=list)
    panels: list[Panel] = field(default_factory=list)
    align: str = "run"  # see app.analysis.align.ALIGN_MODES
    offsets: dict[int, float] = field(default_factory=dict)  # per-run shift, seconds
    side_by_side: bool = False
    x_range: tuple[float, float] | None = None
    layout_is_default: bool = True

    def as_json(self) -> dict[str, Any]:
        return {
            "runs": list(self.runs),
            "panels": [p.as_json() for p in self.panels],
            "align": self.align,
            "offsets": {str(k): v for k, v in self.offsets.items()},
            "side_by_side": self.side_by_side,
            "x_range": list(self.x_range) if self.x_range else None,
            "layout_is_default": self.layout_is_default,
        }

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Comparison:
        xr = d.get("x_range")
        return cls(
            runs=[int(r) for r in d.get("runs", [])],
            panels=[Panel.from_json(p) for p in d.get("panels", [])],
            align=str(d.get("align", "run")),
            offsets={int(k): float(v) for k, v in dict(d.get("offsets", {})).items()},
            side_by_side=bool(d.get("side_by_side", False)),
            x_range=(float(xr[0]), float(xr[1])) if xr else None,
            layout_is_default=bool(d.get("layout_is_default", True)),
        )


@dataclass
class Line:
    run: int
    ref: SeriesRef
    x: np.ndarray
    y: np.ndarray
    unit: str = ""


# a cause window's strip (Mark kind "cause"): its share of a panel's height and its opacity, the
# same in the window and the export
CAUSE_SPAN = 0.035
CAUSE_ALPHA = 170
# More than one drop, rise or dip in view per BAND_PX of the panels' width: a band across every
# panel for each hides the curves (a 4-hour log's 190 drops drew a barcode over its level, where 36
# periodic dips of a 3-minute run read as bands): each is then a tick along the panels' top,
# RUG_SPAN of their height, RUG_ALPHA opaque; the labels' lane says how many.
BAND_PX = 16
RUG_SPAN = 0.04
RUG_ALPHA = 170
BANDED = ("drop", "rise", "dip")


def as_rug(kinds: list[str], width: float) -> bool:
    """Whether marks of these kinds (those in view) are too many to shade across panels `width` px wide."""
    return sum(k in BANDED for k in kinds) * BAND_PX > width


@dataclass(frozen=True)
class Mark:
    """A shaded stretch of time: a detected drop (in the run's colour) or a manual note (grey)."""

    run: int
    label: str
    x0: float
    x1: float
    # "drop"; "note" (grey); "rise" (latency up while throughput held, hatched); "dip" (a member of
    # recurring dips: its band, no label of its own); "recurring" (the group's one label, no band);
    # "cause" (when a drop's cause was there, where the verdict says it: a strip along the foot of
    # every panel, no label)
    kind: str


@dataclass(frozen=True)
class StepMark:
    """Where a load step of a step-load run begins on the figure's time axis, and its thread count."""

    run: int
    x: float
    threads: float


@dataclass(frozen=True)
class Reference:
    """A horizontal line at a limit of what panel `panel` shows, for run `run`: InnoDB's async and
    sync flush points on a checkpoint-age panel (app/analysis/innodb.py), drawn dashed, labelled."""

    panel: int
    y: float
    label: str
    run: int


@dataclass
class Figure:
    title: str
    runs: list[Run]
    panels: list[Panel]
    align: str
    lines: list[list[Line]]  # per panel
    units: list[str]  # per panel ('' when mixed)
    marks: list[Mark] = field(default_factory=list)
    x_range: tuple[float, float] | None = None
    steps: list[StepMark] = field(default_factory=list)  # load steps of step-load runs
    references: list[Reference] = field(default_factory=list)  # limits drawn as lines on panels

    @property
    def x_label(self) -> str:
        return "time (UTC)" if self.align == "absolute" else f"seconds, {ALIGN_MODES[self.align]}"

    def extent(self) -> tuple[float, float]:
        if self.x_range:
            return self.x_range
        xs = [(float(np.nanmin(ln.x)), float(np.nanmax(ln.x))) for p in self.lines for ln in p if len(ln.x)]
        if not xs:
            return (0.0, 1.0)
        return (min(a for a, _ in xs), max(b for _, b in xs))


def build(
    data: RunData,
    run_ids: list[int],
    panels: list[Panel],
    align: str = "run",
    offsets: dict[int, float] | None = None,
    side_by_side: bool = False,
    title: str | None = None,
    x_range: tuple[float, float] | None = None,
    found: dict[int, Findings] | None = None,
) -> Figure:
    """The figure of these runs and panels. `found`: the runs' findings when the caller has them
    (findings_of; the window's own): an export then detects and explains each run once."""
    offsets = offsets or {}
    runs = [data.run(r) for r in run_ids]
    if align not in ALIGN_MODES:
        raise AnalysisError(f"--align must be one of {', '.join(ALIGN_MODES)}")
    panels = [as_lines(p, [data.available(r.id) for r in runs]) for p in panels]  # a few entities of `*`: lines
    lines, units = _lines(data, runs, panels, align, offsets, side_by_side)
    if not any(lines):
        raise AnalysisError("none of the requested series exists in these runs")
    marks = [m for run in runs for m in _marks(data, runs, run, align, offsets, side_by_side, found)]
    steps = step_marks(data, runs, align, offsets, side_by_side)
    name = title if title is not None else default_title(runs)
    refs = references(data, runs, panels)
    return Figure(name, runs, panels, align, lines, units, marks, x_range, steps, refs)


def references(data: RunData, runs: list[Run], panels: list[Panel]) -> list[Reference]:
    """The flush points of each run's InnoDB on every panel that shows its checkpoint age."""
    out = []
    for i, panel in enumerate(panels):
        if not any(is_checkpoint_age(r) for r in panel.shown()):
            continue
        for run in runs:
            points = run_flush_points(data, run.id)
            if points is not None:
                out.append(Reference(i, points.async_age, "async flush point", run.id))
                out.append(Reference(i, points.sync_age, "sync flush point", run.id))
    return out


def _lines(
    data: RunData,
    runs: list[Run],
    panels: list[Panel],
    align: str,
    offsets: dict[int, float],
    side_by_side: bool,
) -> tuple[list[list[Line]], list[str]]:
    """Each panel's lines, every run's series on the shared axis, and the panel's unit ('' when mixed)."""
    lines: list[list[Line]] = []
    units: list[str] = []
    xs = SharedX()  # one x array per distinct time array of a run (a report's CPUs share theirs)
    for panel in panels:
        row, panel_units = [], set()
        for every in panel.shown():
            for run in runs:
                for ref in members(every, data.available(run.id)):  # `SOURCE:METRIC:*`: each entity
                    d = data.data(run.id, ref)
                    if d is None:
                        continue
                    unit = data.unit(run.id, ref)
                    x = xs.of(run.id, d[0], partial(_placed, runs, run.id, align, offsets, side_by_side))
                    row.append(Line(run.id, ref, x, d[1], unit))
                    panel_units.add(unit)
        lines.append(row)
        units.append(panel_units.pop() if len(panel_units) == 1 else "")
    return lines, units


def _placed(
    runs: list[Run], run_id: int, align: str, offsets: dict[int, float], side_by_side: bool, t: np.ndarray
) -> np.ndarray:
    return x_of(runs, run_id, t, align, offsets, side_by_side)


def _marks(
    data: RunData,
    runs: list[Run],
    run: Run,
    align: str,
    offsets: dict[int, float],
    side_by_side: bool,
    given: dict[int, Findings] | None = None,
) -> list[Mark]:
    """A run's notes and its detected drops as decided (dismissed ones left out)."""

    def xs(start: float, end: float) -> tuple[float, float]:
        a, b = x_of(runs, run.id, np.array([start, end]), align, offsets, side_by_side)
        return float(a), float(b)

    notes = data.annotations(run.id)
    marks = [Mark(run.id, n.label, *xs(n.start, n.end), "note") for n in notes if n.kind == "note"]
    if throughput(data, run.id) is None:
        return marks
    # where, and the cause's window (its verdict's evidence)
    found = given[run.id] if given and run.id in given else run_findings(data, run.id, top=1)
    for kind, items in (("drop", found.singles()), ("rise", found.rises)):
        for rd in items:
            label, state = decided_label(notes, rd.drop)
            if state != "dismissed":
                marks.append(Mark(run.id, label, *xs(rd.drop.start, rd.drop.end), kind))
                if rd.cause is not None and worth_saying(rd.cause, rd.drop):
                    marks.append(Mark(run.id, "", *xs(rd.cause.start, rd.cause.end), "cause"))
    for group in found.recurring:  # one label for the group; each dip its band
        marks.append(Mark(run.id, group.label(), *xs(group.pattern.start, group.pattern.end), "recurring"))
        marks += [Mark(run.id, "", *xs(m.drop.start, m.drop.end), "dip") for m in group.members]
    return marks


def step_marks(
    data: RunData,
    runs: list[Run],
    align: str = "run",
    offsets: dict[int, float] | None = None,
    side_by_side: bool = False,
) -> list[StepMark]:
    """The load steps of the step-load runs among `runs` (the Summary's steps, app/analysis/summary.py),
    each where it begins on the time axis of this alignment, with its thread count. For the
    window's time charts and the exports alike."""
    out = []
    for run in runs:
        st = load_steps(data, run.id)
        if st is None:
            continue
        starts = np.array([s.t0 for s in st.steps])
        xs = x_of(runs, run.id, starts, align, offsets or {}, side_by_side)
        out += [StepMark(run.id, float(x), s.threads) for x, s in zip(xs, st.steps, strict=True)]
    return out


def default_title(runs: list[Run]) -> str:
    return " vs ".join(r.name for r in runs)


def default_layout(data: RunData, run_ids: list[int], found: dict[int, Findings] | None = None) -> list[Panel]:
    """The default panels of a comparison of these runs, the database panel the one that shows
    what explains their drops (as the window's). `found`: as build's."""
    return layout_for_runs(run_ids, data.available, data.data, _explains(data, run_ids, found))


def blog_layout(data: RunData, run_ids: list[int], found: dict[int, Findings] | None = None) -> list[Panel]:
    """The panels of the blog preset: the default story in at most 4 panels, those showing the
    resources that explain the runs' drops first (run_drops.explained_classes)."""
    return blog_for_runs(run_ids, data.available, data.data, _explains(data, run_ids, found))


def findings_of(data: RunData, run_ids: list[int]) -> dict[int, Findings]:
    """What each run's throughput says (run_findings), for the runs with a benchmark log."""
    return {r: run_findings(data, r) for r in run_ids if throughput(data, r) is not None}


def _explains(data: RunData, run_ids: list[int], found: dict[int, Findings] | None) -> Callable[[str], float]:
    return explained_classes((found if found is not None else findings_of(data, run_ids)).values())


def figure_of(
    data: RunData, view: Comparison, title: str | None = None, found: dict[int, Findings] | None = None
) -> Figure:
    """The figure of what a comparison shows: its runs, panels, alignment, offsets, time window,
    and the runs' notes and drops as decided (dismissed ones left out). `found`: as build's."""
    args = (view.runs, view.panels, view.align, view.offsets, view.side_by_side, title, view.x_range)
    return build(data, *args, found)


def csv_rows(fig: Figure) -> Iterator[list[str]]:
    """Exactly the plotted data: the x column in the figure's alignment, only the figure's time
    window when it has one, one column per run x series (its unit in the header), blank where a
    run has no sample at that x."""
    columns: list[tuple[str, np.ndarray, np.ndarray]] = []
    names = {r.id: r.name for r in fig.runs}
    for p in range(len(fig.panels)):
        for ln in fig.lines[p]:
            header = f"{names[ln.run]} {ln.ref.spec()}" + (f" ({ln.unit})" if ln.unit else "")
            if header not in (c[0] for c in columns):  # a series shown in two panels: one column
                keep = (ln.x >= fig.x_range[0]) & (ln.x <= fig.x_range[1]) if fig.x_range else slice(None)
                columns.append((header, ln.x[keep], ln.y[keep]))
    xs = np.unique(np.concatenate([c[1] for c in columns])) if columns else np.zeros(0)
    x_name = "time_utc" if fig.align == "absolute" else "seconds"
    yield [x_name, *(c[0] for c in columns)]
    lookup = []
    for _, x, y in columns:
        idx = np.searchsorted(xs, x)
        full = np.full(len(xs), np.nan)
        full[idx] = y
        lookup.append(full)
    for i, x in enumerate(xs):
        cells = [repr(float(x))]
        cells += ["" if math.isnan(col[i]) else repr(float(col[i])) for col in lookup]
        yield cells


def write_csv(fig: Figure, out: Path) -> None:
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(csv_rows(fig))


def csv_text(fig: Figure) -> str:
    """The CSV as text (for the clipboard), the same rows as write_csv."""
    buf = io.StringIO()
    csv.writer(buf).writerows(csv_rows(fig))
    return buf.getvalue()
