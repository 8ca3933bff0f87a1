"""`benchlens report`: the comparison of some runs as one self-contained HTML page (app/report_html.py)
to send to someone who does not run benchlens: the runs; their trend, with its change points, when
the caller gives one (three runs or more); the comparison's figure as inline SVG, drawn by the
export's own renderer (app/render.py through QSvgGenerator: its titles, labels and legend are
<text>); each run's drops with their verdicts and cause windows; the stability and load-step tables
of `benchlens summary`; and for each run after the first, B against A (the first run): the settings
that differ, then every series by quantity and per transaction, as `benchlens diff` says them.

Qt draws the figure, so this module sits at the render layer and needs a QGuiApplication
(app/ui/launch.gui_app, offscreen when headless); everything else it says is computed by
app/analysis and written by the Qt-free report_* modules."""

from __future__ import annotations

import re
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from benchlens.app import __version__
from benchlens.app.analysis.diff import diff_runs
from benchlens.app.analysis.summary import (
    Summary,
    Window,
    diff_table,
    series_refs,
    stability_table,
    stats_table,
    steps_diff_table,
    steps_table,
    summarize,
    wait_table,
)
from benchlens.app.errors import AnalysisError
from benchlens.app.figure import Comparison, default_layout, default_title, figure_of, findings_of
from benchlens.app.model import Run, RunData
from benchlens.app.render import export
from benchlens.app.report_html import Section, esc, folded, page, paragraph, summary_table, when
from benchlens.app.report_sections import drops, runs_table, versus
from benchlens.app.report_trend import section as trend_section
from benchlens.app.store import Library
from benchlens.app.trend import trend_data

FIGURE_WIDTH = 1200
# the figure's height: room for the title and legend, then this much per panel (a report scrolls:
# the 675 px of a blog figure squeeze six panels)
FIGURE_TOP, PANEL_PX = 150, 170
# Qt writes coordinates to 4 decimals; a tenth of a pixel is finer than a screen shows, and the
# figure of ten 1-hour runs shrinks by a third (bench/report_size.py)
_COORD = re.compile(r"(\d+\.\d)\d+")


# from three runs on a report draws their trend
TREND_MIN_RUNS = 3


def trend_of(lib: Library, run_ids: Sequence[int]) -> dict[str, Any] | None:
    """The trend of these runs in the shape of `benchlens trend --json`, for the report's trend
    section (their throughput, grouped as `trend` groups them, with their own change points), or
    None under TREND_MIN_RUNS runs. The CLI and the window's File > Report both ask it here."""
    return trend_data(lib, runs=set(run_ids)) if len(run_ids) >= TREND_MIN_RUNS else None


def build_report(
    data: RunData, run_ids: Sequence[int], title: str | None = None, trend: Mapping[str, Any] | None = None
) -> str:
    """The report of these runs (the first is A, each other a B against it) as an HTML document;
    `trend`: the shape of `benchlens trend --json` (app/report_trend.py), drawn when given."""
    if not run_ids:
        raise AnalysisError("a report needs at least one run")
    runs = [data.run(r) for r in run_ids]
    found = findings_of(data, list(run_ids))
    sections = [Section("runs", "Runs", runs_table(runs))]
    if trend is not None:
        sections.append(Section("trend", "Trend across runs", trend_section(trend)))
    sections.append(Section("comparison", "The comparison", _figure(data, list(run_ids), found)))
    drops_html = [f"<h3>{esc(r.name)}</h3>\n{drops(r, found.get(r.id))}" for r in runs]
    sections.append(Section("drops", "Drops, explained", "\n".join(drops_html)))
    refs = series_refs(data, run_ids)
    sections.append(Section("tables", "Stability and load steps", _tables(summarize(data, run_ids, Window(), refs))))
    for k, b in enumerate(runs[1:], start=1):
        sections.append(Section(f"versus-{k}", f"{b.name} against {runs[0].name}", _versus(data, runs[0], b, refs)))
    made = f"made by benchlens {__version__} on {when(time.time())} UTC"
    who = f"{len(runs)} runs; A is {runs[0].name}" if len(runs) > 1 else "1 run"
    return page(title or default_title(runs), f"{who}; {made}. Times are UTC.", sections)


def _figure(data: RunData, run_ids: list[int], found: Mapping[int, Any]) -> str:
    """The comparison's figure as `benchlens export` draws it (default layout, drops marked), inline."""
    try:
        view = Comparison(run_ids, default_layout(data, run_ids, dict(found)))
        if not view.panels:
            raise AnalysisError("the runs have no series to plot")
        fig = figure_of(data, view, None, dict(found))
    except AnalysisError as e:
        return paragraph(f"No figure: {e}.", "note")
    size = (FIGURE_WIDTH, FIGURE_TOP + PANEL_PX * len(fig.panels))
    with tempfile.TemporaryDirectory(prefix="benchlens-report-") as tmp:
        svg = export(fig, Path(tmp) / "figure.svg", size).read_text(encoding="utf-8")
    note = paragraph(
        "Shaded: the drops each run's throughput had (in the run's colour; a strip at a panel's foot: "
        "when the cause the verdict names was there); hatched: latency rises.",
        "note",
    )
    return f"<figure>\n{inline_svg(svg)}\n</figure>\n{note}"


def inline_svg(svg: str) -> str:
    """Qt's SVG document as an element of the page: its XML declaration dropped, coordinates to a
    tenth of a pixel; checked to be well-formed XML with nothing that runs (Qt escapes the text it
    writes, so a run's name never becomes markup)."""
    start = svg.find("<svg")
    if start < 0:
        raise AnalysisError("the figure's SVG has no <svg> element")
    svg = _COORD.sub(r"\1", svg[start:])
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as e:
        raise AnalysisError(f"the figure's SVG is not well-formed XML: {e}") from None
    for el in root.iter():
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if tag in ("script", "foreignobject") or any(a.lower().startswith("on") for a in el.attrib):
            raise AnalysisError(f"the figure's SVG holds a <{tag}> that could run")
    return svg


def _tables(s: Summary) -> str:
    """The stability and load-step tables of all the runs; every series' statistics folded."""
    parts = [summary_table(stability_table(s))] if s.stability else []
    if s.steps:
        parts.append(summary_table(steps_table(s)))
    else:
        parts.append(paragraph("No run is a step load (a benchmark re-run at several thread counts).", "note"))
    stats = stats_table(s)
    parts.append(folded(f"{stats.title}: every plotted series, per run", summary_table(stats, heading=False)))
    return "\n".join(parts)


def _versus(data: RunData, a: Run, b: Run, refs: Sequence[Any]) -> str:
    """B against A: `benchlens diff`, then the summary's tables of the pair (mean, median and p95 of
    the plotted series, top waits side by side, load steps side by side)."""
    try:
        out = [versus(diff_runs(data, a.id, b.id))]
    except AnalysisError as e:
        out = [paragraph(f"No series comparison: {e}.", "note")]
    pair = summarize(data, [a.id, b.id], Window(), refs)
    out.append(summary_table(diff_table(pair)))
    out += [summary_table(wait_table(pair, w)) for w in pair.waits]
    if a.id in pair.steps and b.id in pair.steps:
        out.append(summary_table(steps_diff_table(pair)))
    return "\n".join(out)


def write_report(html: str, out: Path) -> Path:
    """Write the page next to its place, then move it there: a failed write leaves no half file."""
    tmp = out.with_name(f".{out.name}.part")
    try:
        tmp.write_text(html, encoding="utf-8")
        tmp.replace(out)
    finally:
        tmp.unlink(missing_ok=True)
    return out
