"""The figure renderer: one QPainter drawing for PNG (QImage), SVG (QSvgGenerator: titles,
labels and legend are <text>) and PDF (QPdfWriter, vector). pyqtgraph's SVG exporter is not
used (it fails on PySide6 >= 6.11). Curves are decimated with the same min/max pyramid as the
window, so a 1 s stall shows in a 1200 px figure of a 24 h run."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen

from benchlens.app.analysis.align import ALIGN_MODES
from benchlens.app.analysis.decimate import as_steps, drawn_as_steps, minmax_level, minmax_view
from benchlens.app.analysis.layout import Panel, shortened
from benchlens.app.analysis.spikes import clip_top, peaks
from benchlens.app.canvas import MANY_RUNS as MANY_RUNS
from benchlens.app.canvas import PUBLICATION as PUBLICATION
from benchlens.app.canvas import SCREEN as SCREEN
from benchlens.app.canvas import THEMES as THEMES
from benchlens.app.canvas import Geometry as Geometry
from benchlens.app.canvas import Look as Look
from benchlens.app.canvas import Painting as Painting
from benchlens.app.canvas import Plot as Plot
from benchlens.app.canvas import Theme as Theme
from benchlens.app.canvas import image as image
from benchlens.app.canvas import log10_of
from benchlens.app.canvas import look_of as look_of
from benchlens.app.canvas import polyline as polyline
from benchlens.app.canvas import write as write
from benchlens.app.figure import (
    BANDED,
    CAUSE_ALPHA,
    CAUSE_SPAN,
    RUG_ALPHA,
    RUG_SPAN,
    Figure,
    Line,
    Mark,
    Reference,
    as_rug,
)
from benchlens.app.heatmap_render import draw_heatmap, heatmap_of
from benchlens.app.lane import LaneLabel, Placed, bars, lane_layout, more_text, weight
from benchlens.app.palette import readable
from benchlens.app.stepchart import StepChart
from benchlens.app.ticks import format_ticks, gap_note, is_duration, mean_of, reading, time_ticks
from benchlens.app.ticks import heading as heading_of

SIZES = {"blog": (1200, 675), "slide": (1920, 1080), "square": (1080, 1080)}
PANEL_WEIGHT = 200  # a panel the user never sized weighs as much as one 200 px high in the window
# a long run's min/max band under its level line (app/analysis/decimate.py): light, the level reads
ENVELOPE_ALPHA = 60
STYLES = [Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine]


@dataclass(frozen=True)
class _Marks:
    """The marks inside the time window, each with its tone: its run's colour for a drop, grey for a note."""

    marks: list[Mark]
    tone: dict[Mark, QColor]


def draw(fig: Figure, p: QPainter, w: float, h: float, theme: Theme = PUBLICATION) -> None:
    """Draw the whole figure into the rectangle (0, 0, w, h) of the painter."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.fillRect(QRectF(0, 0, w, h), QColor(theme.background))
    look = look_of(fig, w, h, theme)
    top = draw_title(p, fig.title, w, look)
    top = run_legend(p, fig, w, top, look)
    marks = _visible_marks(fig, _geometry(fig, w, h, top, look), look)
    lane = _lane_of(marks, _geometry(fig, w, h, top, look), look)
    geo = _geometry(fig, w, h, top + _lane_height(lane, look), look)
    _draw_lane(p, lane, marks, geo, top, look)
    for i in range(len(fig.panels)):
        _panel(p, fig, i, geo, marks, look)
    _time_axis(p, fig, geo, look)


def draw_title(p: QPainter, text: str, w: float, look: Look) -> float:
    """The figure's title, centred; returns where the legend starts."""
    base = look.base
    p.setPen(look.text)
    top = base * 0.8
    title = _fit(look.title_font, text, w - base * 2)
    p.setFont(look.title_font)
    p.drawText(
        QRectF(base, top, w - base * 2, base * 2), Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop, title
    )
    return top + base * 2.3


def run_legend(p: QPainter, fig: Figure | StepChart, w: float, top: float, look: Look) -> float:
    """Each run's line and name, in rows; returns where the panels start."""
    base, fm = look.base, look.fm
    p.setFont(look.font)
    x = base * 4
    for r in fig.runs:
        name = fm.elidedText(r.name, Qt.TextElideMode.ElideMiddle, w - base * 9)
        width = base * 4.5 + fm.horizontalAdvance(name)
        if x > base * 4 and x + width - base * 1.5 > w - base * 1.5:  # wrap the legend, never cut a name
            x, top = base * 4, top + fm.height() * 1.25
        p.setPen(QPen(look.color[r.id], max(2.0, base / 5)))
        p.drawLine(QPointF(x, top + fm.height() / 2), QPointF(x + base * 2.5, top + fm.height() / 2))
        p.setPen(look.text)
        p.drawText(QPointF(x + base * 3, top + fm.ascent()), name)
        x += width
    return top + fm.height() * 1.6


def _geometry(fig: Figure, w: float, h: float, top: float, look: Look) -> Geometry:
    base = look.base
    left, right, bottom = base * 6.5, w - base * 1.5, h - base * 4.2
    gap = base * 2.2
    # panels share the column as the window does: in proportion to the heights the user gave them
    weights = np.array([float(p.height or PANEL_WEIGHT) for p in fig.panels] or [1.0])
    room = bottom - top + gap
    offsets = [0.0, *(np.cumsum(weights) / weights.sum() * room).tolist()]
    x0, x1 = fig.extent()
    if x1 <= x0:
        x1 = x0 + 1
    xticks, scale = time_ticks(
        x0, x1, right - left, look.fs.horizontalAdvance, fig.align == "absolute", ALIGN_MODES[fig.align]
    )
    return Geometry(w, left, right, top, bottom, gap, offsets, x0, x1, xticks, scale.title)


def _visible_marks(fig: Figure, geo: Geometry, look: Look) -> _Marks:
    marks = [m for m in fig.marks if m.x1 >= geo.x0 and m.x0 <= geo.x1]
    tone = {m: QColor(look.color[m.run]) if m.kind != "note" else QColor("#777777") for m in marks}
    return _Marks(marks, tone)


def _panel(p: QPainter, fig: Figure, i: int, geo: Geometry, marks: _Marks, look: Look) -> None:
    """Panel i: marks behind, then grid and frame, heading and curves (the marks' labels are in
    the lane above the panels)."""
    area = geo.area(i, look.fs.height() * 1.3)
    if (heat := heatmap_of(fig, i, geo.x0, geo.x1, area.width())) is not None:  # every CPU: a heatmap (#25)
        _heading(p, fig, i, area, look)
        return draw_heatmap(p, heat, area, look.small, look.text, look.color)
    panel = fig.panels[i]
    lines = fig.lines[i]
    top = _spike_top(lines, fig.units[i], geo, panel.log_y)
    lo, hi = _value_range(lines, geo.x0, geo.x1, panel.log_y, panel.y_zero, top)
    refs = [r for r in fig.references if r.panel == i and not panel.log_y]
    hi = max([hi, *(r.y * 1.06 for r in refs)])  # a limit the curve stays under is still shown
    plot = Plot(area, lo, hi, panel.log_y, fig.units[i])
    _bands(p, marks, geo, area)
    grid(p, geo, plot, look)
    _steps(p, fig, geo, area, look, labels=i == len(fig.panels) - 1)
    _heading(p, fig, i, area, look)
    _curves(p, fig.panels[i], lines, geo, plot, look, top)
    if lo > 0 and [r.metric for r in panel.refs] == ["tps"]:  # an axis not from 0 magnifies a small gap: say it
        _gap(p, gap_note([mean_of(_in_window(ln, geo.x0, geo.x1)) for ln in lines]), area, look)
    if top is not None:
        _peak_marks(p, lines, fig.units[i], top, geo, plot, look)
    _references(p, refs, plot, look)


def _veil(look: Look) -> QColor:
    """The background a label sits on over the curves: both stay readable."""
    veil = QColor(look.theme.background)
    veil.setAlpha(200)
    return veil


def _references(p: QPainter, refs: list[Reference], plot: Plot, look: Look) -> None:
    """Limits of the panel's quantity (InnoDB's flush points): a dashed line in the run's colour,
    its label at the right end, over the line, or under it when the label of a line just above
    would cover it; runs with the same limit (the same redo log) have one label, in the first
    one's colour."""
    p.setFont(look.small)
    said: set[tuple[str, float]] = set()
    tops: list[float] = []  # the labels' tops placed so far
    for r in sorted(refs, key=lambda r: -r.y):  # from the top down
        y = float(plot.sy(r.y))
        color = QColor(look.color[r.run])
        p.setPen(QPen(color, look.line, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(plot.area.left(), y), QPointF(plot.area.right(), y))
        if (r.label, r.y) in said:
            continue
        said.add((r.label, r.y))
        text = f"{r.label} {format_ticks([r.y], plot.unit)[0]}"
        width, height = look.fs.horizontalAdvance(text), look.fs.height()
        above = y - 3 - look.fs.descent()  # the baseline of a label over the line
        if any(abs(above - look.fs.ascent() - top) < height for top in tops) or above - height < plot.area.top():
            above = y + 2 + look.fs.ascent()  # under it
        tops.append(above - look.fs.ascent())
        p.fillRect(QRectF(plot.area.right() - width - 6, above - look.fs.ascent(), width + 4, height), _veil(look))
        p.setPen(color)
        p.drawText(QPointF(plot.area.right() - width - 4, above), text)


def _steps(p: QPainter, fig: Figure, geo: Geometry, area: QRectF, look: Look, labels: bool) -> None:
    """The load steps of step-load runs: a dotted line in the run's colour where each step
    begins, and on the bottom panel its thread count at the foot of the line (a row per run)."""
    steps = [s for s in fig.steps if geo.x0 <= s.x <= geo.x1]
    rows = {run: k for k, run in enumerate(dict.fromkeys(s.run for s in steps))}
    fs = look.fs
    veil = _veil(look)
    for s in steps:
        x = float(geo.sx(s.x))
        color = QColor(look.color[s.run])
        color.setAlpha(160)
        p.setPen(QPen(color, 1, Qt.PenStyle.DotLine))
        p.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()))
        if labels:
            text = f"{s.threads:g} thr" if math.isfinite(s.threads) else "?"
            tw = fs.horizontalAdvance(text) + 4
            box = QRectF(
                min(x + 1, area.right() - tw), area.bottom() - (rows[s.run] + 1) * (fs.height() + 1), tw, fs.height()
            )
            p.fillRect(box, veil)
            p.setFont(look.small)
            p.setPen(look.color[s.run])
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _gap(p: QPainter, note: str, area: QRectF, look: Look) -> None:
    """The runs' relative gap at the right of the heading row (a one-series panel has no legend there)."""
    if note:
        p.setFont(look.small)
        p.setPen(look.text)
        x = area.right() - look.fs.horizontalAdvance(note)
        p.drawText(QPointF(x, area.top() - look.fs.height() * 0.35), note)


def _spike_top(lines: list[Line], unit: str, geo: Geometry, log: bool) -> float | None:
    """Where a duration panel one spike would flatten is cut (app/analysis/spikes.py), as the window cuts it."""
    if log or not is_duration(unit):
        return None
    return clip_top([_in_window(ln, geo.x0, geo.x1) for ln in lines])


def _peak_marks(p: QPainter, lines: list[Line], unit: str, top: float, geo: Geometry, plot: Plot, look: Look) -> None:
    """Each clipped peak's value at the top of the panel, in its run's colour, on a veil."""
    p.setFont(look.small)
    fs = look.fs
    boxes: list[QRectF] = []
    for ln in lines:
        keep = (ln.x >= geo.x0) & (ln.x <= geo.x1)
        for px, py in peaks(ln.x[keep], ln.y[keep], top):
            text = f"\u25b2 {reading(py, unit)}"
            w = fs.horizontalAdvance(text) + 4
            x = min(max(float(geo.sx(px)) - w / 2, plot.area.left()), plot.area.right() - w)
            box = QRectF(x, plot.area.top() + 1, w, fs.height())
            if any(box.intersects(b) for b in boxes):  # a higher peak's mark is there: it says enough
                continue
            boxes.append(box)
            p.fillRect(box, _veil(look))
            p.setPen(QColor(look.color[ln.run]))
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, text)


def _value_range(
    lines: list[Line], x0: float, x1: float, log: bool = False, zero: bool = False, top: float | None = None
) -> tuple[float, float]:
    """The span of the lines' finite values in the time window, padded (in decades on a log axis),
    up to `top` when a spike is cut there."""
    ys = [_in_window(ln, x0, x1) for ln in lines]
    if top is not None:
        ys = [np.minimum(y, top) for y in ys]
    if log:
        ys = [log10_of(y) for y in ys]
    spans = [s for s in map(_finite_span, ys) if s is not None]
    lo, hi = (min(s[0] for s in spans), max(s[1] for s in spans)) if spans else (0.0, 1.0)
    if log:
        return (math.floor(lo), max(math.ceil(hi), math.floor(lo) + 1))  # whole decades
    if zero:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    lo = min(lo, 0.0) if lo >= 0 and lo < 0.35 * hi else lo  # counts and rates start at 0
    if hi <= lo:
        hi = lo + 1
    pad = (hi - lo) * 0.06
    return (lo - pad if lo != 0 else lo), hi + pad


def _in_window(ln: Line, x0: float, x1: float) -> np.ndarray:
    """The line's values at x0 <= x <= x1: all of them, not copied, when the window holds the line
    (a whole run: most exports)."""
    if len(ln.x) and np.minimum.reduce(ln.x) >= x0 and np.maximum.reduce(ln.x) <= x1:  # NaN: False
        return ln.y
    return ln.y[(ln.x >= x0) & (ln.x <= x1)]


def _finite_span(y: np.ndarray) -> tuple[float, float] | None:
    """(min, max) of the finite values, None if none: fmin/fmax skip NaN without a copy; only a
    line with an infinity or without a value takes the filtered path."""
    if not len(y):
        return None
    lo, hi = float(np.fmin.reduce(y)), float(np.fmax.reduce(y))
    if math.isfinite(lo) and math.isfinite(hi):
        return lo, hi
    finite = y[np.isfinite(y)]
    return (float(finite.min()), float(finite.max())) if finite.size else None


def _bands(p: QPainter, marks: _Marks, geo: Geometry, area: QRectF) -> None:
    """Drops and recurring dips (run colour), latency rises (hatched) and notes (grey) behind
    everything; a recurring group is its dips' bands and one label; a drop's cause window, where
    the verdict says it, a strip along the foot. Too many to shade (as_rug): ticks along the top."""
    rows: dict[int, int] = {}  # a run's row of cause strips, in the order the runs come
    rug = as_rug([m.kind for m in marks.marks], area.width())
    for mark in marks.marks:
        if mark.kind == "recurring":
            continue
        band = QColor(marks.tone[mark])
        band.setAlpha(45)
        a, b = float(geo.sx(max(mark.x0, geo.x0))), float(geo.sx(min(mark.x1, geo.x1)))
        box = QRectF(a, area.top(), max(b - a, 1.0), area.height())
        if rug and mark.kind in BANDED:  # too many to shade: a tick along the top
            band.setAlpha(RUG_ALPHA)
            p.fillRect(QRectF(box.left(), area.top(), box.width(), max(area.height() * RUG_SPAN, 2.0)), band)
        elif mark.kind == "rise":
            band.setAlpha(110)
            p.fillRect(box, QBrush(band, Qt.BrushStyle.BDiagPattern))
        elif mark.kind == "cause":  # a strip along the panel's foot, a row per run, as in the window
            band.setAlpha(CAUSE_ALPHA)
            h = min(max(area.height() * CAUSE_SPAN, 3.0), 8.0)
            foot = area.bottom() - h * rows.setdefault(mark.run, len(rows))
            p.fillRect(QRectF(box.left(), foot - h, box.width(), h), band)
        else:
            p.fillRect(box, band)
            if mark.kind != "note":  # its edges in the run's colour: overlapping shades stay told apart
                band.setAlpha(150)
                p.setPen(QPen(band, 1))
                p.drawLine(QPointF(box.left(), box.top()), QPointF(box.left(), box.bottom()))
                p.drawLine(QPointF(box.right(), box.top()), QPointF(box.right(), box.bottom()))


def grid(p: QPainter, geo: Geometry, plot: Plot, look: Look) -> None:
    """The grid at the value and time ticks, the values left of the panel, the frame."""
    area, base, fs = plot.area, look.base, look.fs
    p.setFont(look.small)
    for v, label in plot.ticks(fs.height()):
        yy = area.bottom() - (v - plot.lo) / (plot.hi - plot.lo) * area.height()
        p.setPen(QPen(QColor(look.theme.grid), 1))
        p.drawLine(QPointF(area.left(), yy), QPointF(area.right(), yy))
        p.setPen(look.text)
        p.drawText(
            QRectF(0, yy - fs.height() / 2, geo.left - base * 0.6, fs.height()),
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
            label,
        )
    for v, _ in geo.xticks:
        xx = float(geo.sx(v))
        p.setPen(QPen(QColor(look.theme.grid), 1))
        p.drawLine(QPointF(xx, area.top()), QPointF(xx, area.bottom()))
    p.setPen(QPen(QColor(look.theme.frame), 1))
    p.drawRect(area)


def _heading(p: QPainter, fig: Figure, i: int, area: QRectF, look: Look) -> None:
    """The panel's title with its unit, and the metrics' line styles when there are several."""
    panel, unit, base, fm = fig.panels[i], fig.units[i], look.base, look.fm
    heading = heading_of(panel.title, unit, [r.metric for r in panel.refs])
    legend_width = 0.0
    # the series shown (a hidden one is left out; each keeps the style of its place in the panel)
    entries = [
        (j, lb) for j, (r, lb) in enumerate(zip(panel.refs, panel.legend(), strict=True)) if r not in panel.hidden
    ]
    if len(panel.refs) > 1 and entries:  # the legend takes what the heading leaves, at least half the width
        room = max(area.width() - fm.horizontalAdvance(heading) - base * 2, area.width() * 0.5)
        legend_width = _metric_legend(p, entries, area, room, base, look.small, look.text)
    p.setFont(look.font)
    p.setPen(look.text)
    heading = fm.elidedText(heading, Qt.TextElideMode.ElideRight, area.width() - legend_width - base)
    p.drawText(QPointF(area.left(), area.top() - look.fs.height() * 0.35), heading)


def _curves(
    p: QPainter, panel: Panel, lines: list[Line], geo: Geometry, plot: Plot, look: Look, top: float | None = None
) -> None:
    """The lines, clipped to the panel, decimated to the pixels they occupy: colour is the run,
    line style the metric (its place in the panel), as in the window. The line that covers the
    most of the panel is drawn first, so a quiet run stays visible over a noisy one. Values above
    `top` (a cut spike) are drawn at it; a dense line (a long run) is its level over a light band."""
    p.save()
    p.setClipRect(plot.area)
    curves: list[tuple[float, int, Line, np.ndarray, np.ndarray]] = []
    levels = []
    width = int(plot.area.width())
    for ln in lines:
        x, y = as_steps(ln.x, ln.y) if drawn_as_steps(ln.ref, ln.unit) else (ln.x, ln.y)
        y = y if top is None else np.minimum(y, top)
        xs, yv = minmax_view(x, y, geo.x0, geo.x1, width)  # the window's points
        sy = np.asarray(plot.sy(yv))
        ink = float(np.nansum(np.abs(np.diff(sy)))) if len(sy) > 1 else 0.0
        curves.append((-ink, len(curves), ln, np.asarray(geo.sx(xs)), sy))
        level = minmax_level(x, y, geo.x0, geo.x1, width)
        if level is not None:
            levels.append((ln, np.asarray(geo.sx(level[0])), np.asarray(plot.sy(level[1]))))
    dense = {id(ln) for ln, _, _ in levels}
    for _, _, ln, sx, sy in sorted(curves, key=lambda c: (c[0], c[1])):
        j = panel.refs.index(ln.ref) if ln.ref in panel.refs else 0
        color = QColor(look.color[ln.run])
        color.setAlpha(min(look.alpha, ENVELOPE_ALPHA) if id(ln) in dense else look.alpha)
        p.setPen(QPen(color, look.line, Qt.PenStyle.SolidLine if id(ln) in dense else STYLES[j % len(STYLES)]))
        polyline(p, sx, sy)
    for ln, sx, sy in levels:  # every level over every band
        j = panel.refs.index(ln.ref) if ln.ref in panel.refs else 0
        color = QColor(look.color[ln.run])
        color.setAlpha(look.alpha)
        p.setPen(QPen(color, look.line, STYLES[j % len(STYLES)]))
        polyline(p, sx, sy)
    p.restore()


@dataclass(frozen=True)
class _Lane:
    """The labels shown in the lane above the panels (app/lane.py), and the summary of the rest."""

    shown: list[tuple[Mark, Placed]]
    bars: list[tuple[float, float]]  # px, per label shown
    more: str


def _lane_of(marks: _Marks, geo: Geometry, look: Look) -> _Lane:
    labelled = [m for m in marks.marks if m.label]
    spans = [
        LaneLabel(
            float(geo.sx(max(m.x0, geo.x0))),
            float(geo.sx(min(m.x1, geo.x1))),
            look.fm.horizontalAdvance(m.label) + 6,
            weight(m.kind, m.x0, m.x1),
        )
        for m in labelled
    ]
    more_width = look.fm.horizontalAdvance(more_text(len(labelled), ["note"])) + look.base
    placed, hidden = lane_layout(spans, geo.left, geo.right, more_width)
    shown_ids = {pl.index for pl in placed}
    left_out = [m.kind for k, m in enumerate(labelled) if k not in shown_ids]
    shown = [(labelled[pl.index], pl) for pl in placed]
    return _Lane(shown, bars(spans, placed, geo.left, geo.right), more_text(hidden, left_out))


def _lane_height(lane: _Lane, look: Look) -> float:
    rows = max([pl.row + 1 for _, pl in lane.shown] + [1 if lane.more else 0])
    return rows * _row_height(look) + (look.base * 0.4 if rows else 0.0)


def _row_height(look: Look) -> float:
    return look.fm.height() + look.base * 0.45  # the text and the bar under it that spans its mark


def _draw_lane(p: QPainter, lane: _Lane, marks: _Marks, geo: Geometry, top: float, look: Look) -> None:
    """Each label in its run's colour made readable on the background (>= 4.5:1), over a bar in
    the run's colour across its mark's visible span; the summary of the rest at the right."""
    p.setFont(look.font)
    row_h, bg = _row_height(look), look.theme.background
    for (mark, pl), (a, b) in zip(lane.shown, lane.bars, strict=True):
        y = top + pl.row * row_h
        tone = marks.tone[mark].name()
        p.setPen(QColor(readable(tone, bg)))
        p.drawText(QPointF(pl.left + 3, y + look.fm.ascent()), mark.label)
        p.fillRect(QRectF(a, y + look.fm.height() + 1, b - a, look.base * 0.3), QColor(tone))
    if lane.more:
        p.setPen(look.text)
        y = top + max([pl.row for _, pl in lane.shown] + [0]) * row_h
        p.drawText(QRectF(geo.left, y, geo.right - geo.left, look.fm.height()), Qt.AlignmentFlag.AlignRight, lane.more)


def _time_axis(p: QPainter, fig: Figure, geo: Geometry, look: Look) -> None:
    """The time axis under the last panel, the end labels kept inside the figure."""
    base, fm, fs = look.base, look.fm, look.fs
    p.setFont(look.small)
    p.setPen(look.text)
    for v, label in geo.xticks:
        tw = fs.horizontalAdvance(label)
        lx = min(max(float(geo.sx(v)) - tw / 2, 1.0), geo.width - tw - 1)
        p.drawText(QPointF(lx, geo.bottom + base * 0.4 + fs.ascent()), label)
    p.setFont(look.font)
    p.drawText(
        QRectF(geo.left, geo.bottom + base * 0.5 + fs.height(), geo.right - geo.left, fm.height() * 1.5),
        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
        geo.x_title,
    )


def _fit(font: QFont, text: str, width: float) -> str:
    """A long title: the font shrinks down to 70%, then the text is elided."""
    size = font.pixelSize()
    while QFontMetricsF(font).horizontalAdvance(text) > width and font.pixelSize() > size * 0.7:
        font.setPixelSize(font.pixelSize() - 1)
    return QFontMetricsF(font).elidedText(text, Qt.TextElideMode.ElideRight, width)


def _metric_legend(
    p: QPainter, entries: list[tuple[int, str]], area: QRectF, room: float, base: float, small: QFont, text: QColor
) -> float:
    """Line style per metric (entries: the style's index and the label), right-aligned above the
    panel; long names are shortened from the front (the end of an event or file name is what
    tells them apart) to fit in `room`. Returns the width used."""
    fs = QFontMetricsF(small)
    styles = [j for j, _ in entries]
    for limit in (36, 28, 20, 14, 10):
        short = [shortened(s, limit) for _, s in entries]
        used = sum(fs.horizontalAdvance(s) + base * 3.2 for s in short)
        if used <= room:
            break
    p.setFont(small)
    lx = area.right()
    yy = area.top() - fs.height() * 0.6
    for j, label in reversed(list(zip(styles, short, strict=True))):
        lx -= fs.horizontalAdvance(label) + base * 3.2
        p.setPen(QPen(text, 1.5, STYLES[j % len(STYLES)]))
        p.drawLine(QPointF(lx, yy), QPointF(lx + base * 2.2, yy))
        p.setPen(text)
        p.drawText(QPointF(lx + base * 2.6, yy + fs.ascent() / 2.5), label)
    return used


def to_image(
    fig: Figure, size: tuple[int, int] = SIZES["blog"], scale: float = 1.0, theme: Theme = PUBLICATION
) -> QImage:
    """The figure drawn on size x scale pixels (scale 2 for retina; below 1 for a thumbnail)."""
    return image(partial(draw, fig, theme=theme), size, scale, theme)


def export(
    fig: Figure, out: Path, size: tuple[int, int] = SIZES["blog"], scale: float = 1.0, theme: Theme = PUBLICATION
) -> Path:
    """Write the figure as .png (size x scale pixels, e.g. scale 2 for retina), .svg or .pdf."""
    return write(partial(draw, fig, theme=theme), fig.title, out, size, scale, theme)
