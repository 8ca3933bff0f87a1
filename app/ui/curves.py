"""The curves of the chart column: each run's series in its colour and each metric in its line
style, drawn from a min/max pyramid (app/analysis/decimate.py) so that any pan or zoom asks for
about two points per pixel column and a 1 s stall still shows; the panels scrolled out of view
skip a pan or zoom and catch up when they come back. Beyond a few samples per pixel (a long run)
the min/max band turns light and the level (bin medians) is drawn over it. A duration panel that
one spike would flatten is drawn up to its usual range, the spike marked with its value
(app/analysis/spikes.py)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from pyqtgraph.Qt import OpenGLHelpers
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPen

from benchlens.app.analysis.decimate import PYRAMID, MinMaxPyramid, as_steps, drawn_as_steps
from benchlens.app.analysis.layout import Panel
from benchlens.app.analysis.spikes import clip_top, peaks
from benchlens.app.model import SeriesRef
from benchlens.app.render import ENVELOPE_ALPHA, MANY_RUNS
from benchlens.app.ticks import gap_note, is_duration, mean_of, reading
from benchlens.app.ui.readout import Curve
from benchlens.app.ui.session import Session

MARK_APART = 0.08  # clipped-peak marks at least this share of the run apart
STYLES = [Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine]


class BareCurve(pg.PlotCurveItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """A curve item whose data bounds (what a panel's y range is fitted to, each pan) are the same
    as pyqtgraph's, without its per-call warnings context and nan-function wrappers: they were a
    tenth of a pan step of bench/ui_speed.py."""

    def dataBounds(self, ax: int, frac: float = 1.0, orthoRange: tuple[float, float] | None = None) -> object:
        cache = self._boundsCache[ax]
        if cache is not None and cache[0] == (frac, orthoRange):
            return cache[1]
        x, y = self.xData, self.yData
        plain = self.opts.get("stepMode") is None and self.opts["fillLevel"] is None and self.opts["shadowPen"] is None
        if frac < 1.0 or x is None or not len(x) or not plain:
            return super().dataBounds(ax, frac, orthoRange)
        d, d2 = (x, y) if ax == 0 else (y, x)
        if orthoRange is not None:
            d = d[(d2 >= orthoRange[0]) & (d2 <= orthoRange[1])]
        if not len(d):
            return (None, None)
        with np.errstate(invalid="ignore"):
            b = (float(np.fmin.reduce(d)), float(np.fmax.reduce(d)))  # NaN skipped, as nanmin/nanmax
        if math.isinf(b[0]) or math.isinf(b[1]):
            d = d[np.isfinite(d)]
            if not len(d):
                return (None, None)
            b = (float(d.min()), float(d.max()))
        pen = self.opts["pen"]  # a non-cosmetic pen's width widens the bounds (ours are cosmetic)
        if pen is not None and not pen.isCosmetic() and pen.style() != Qt.PenStyle.NoPen:
            b = (b[0] - pen.widthF() * 0.7072, b[1] + pen.widthF() * 0.7072)
        self._boundsCache[ax] = [(frac, orthoRange), b]
        return b

    def set_points(self, xs: np.ndarray, ys: np.ndarray, connect: str) -> None:
        """New points for the view (1-D float arrays of one length), as setData(xs, ys, connect=...)
        sets them, without its argument parsing and checks (18 curves a pan step)."""
        self.xData, self.yData = xs, ys
        self.invalidateBounds()
        self.prepareGeometryChange()
        self.informViewBoundsChanged()
        self.path = self.fillPath = self._fillPathList = self._mouseShape = None
        self._lineSegmentsRendered = False
        self.opts["connect"] = connect
        self.update()
        self.sigPlotChanged.emit(self)

    def paint(self, p: QPainter, opt: object, widget: object) -> None:
        """pyqtgraph's paint of a plain line (one cosmetic pen, no fill, shadow, steps or
        composition mode) on the screen, without its checks of the cases it is not: its path
        drawn with its pen."""
        o, pen = self.opts, self.opts["pen"]
        plain = (
            self._exportOpts is False
            and o["fillLevel"] is None
            and o["shadowPen"] is None
            and o["compositionMode"] is None
            and not o["stepMode"]
            and pen is not None
            and (o["segmentedLineMode"] == "off" or (o["segmentedLineMode"] == "auto" and pen.widthF() <= 1.0))
            and not isinstance(widget, OpenGLHelpers.GraphicsViewGLWidget)
        )
        if not plain:
            super().paint(p, opt, widget)
            return
        if self.xData is None or not len(self.xData) or pen.style() == Qt.PenStyle.NoPen:
            return
        p.setRenderHint(QPainter.RenderHint.Antialiasing, bool(o["antialias"]))
        p.setPen(pen)
        p.drawPath(self.getPath())

    def viewTransformChanged(self) -> None:
        """The view moved: the bounding rect (its pixel padding is in view pixels) is worked out
        anew, not the data bounds (pyqtgraph drops both: a pan went through each curve's points
        again for every view change, ~65 bounding rects a step of bench/ui_speed.py)."""
        self._boundingRect = None
        self.prepareGeometryChange()


def ink(ys: np.ndarray) -> float:
    """How much a line zigzags: its total vertical travel over its range (a flat line 0)."""
    finite = ys[np.isfinite(ys)]
    if len(finite) < 2:
        return 0.0
    span = float(finite.max() - finite.min()) or 1.0
    return float(np.abs(np.diff(finite)).sum()) / span


@dataclass
class Decimated:
    """Every curve drawn, with its panel and its pyramid; iterating gives (panel, item, pyramid)."""

    entries: list[tuple[int, pg.PlotCurveItem, MinMaxPyramid]] = field(default_factory=list)
    stale: set[int] = field(default_factory=set)  # panels out of view that missed a zoom or pan
    levels: dict[int, pg.PlotCurveItem] = field(default_factory=dict)  # by id of the band's item
    moved: bool = False  # whether the view changed since the curves were drawn (for the whole runs)

    def __iter__(self) -> Iterator[tuple[int, pg.PlotCurveItem, MinMaxPyramid]]:
        return iter(self.entries)

    def add(self, panel: int, item: pg.PlotCurveItem, pyramid: MinMaxPyramid, level: pg.PlotCurveItem | None) -> None:
        self.entries.append((panel, item, pyramid))
        if level is not None:
            self.levels[id(item)] = level

    def show_range(self, x_range: tuple[float, float], pixels: int, shown: set[int], panels: int) -> None:
        """A new x range: the panels in view get their points now, the others when they come back."""
        self.stale = set(range(panels)) - shown
        self.moved = True
        self.redraw(shown, x_range, pixels)

    def redraw(self, panels: Iterable[int], x_range: tuple[float, float], pixels: int) -> None:
        """The curves of these panels get their pyramid's points for x_range on `pixels` columns."""
        wanted = set(panels)
        for panel, item, pyramid in self.entries:
            if panel in wanted:
                shift = item.pos().x()  # a run being dragged is drawn shifted
                x0, x1 = x_range[0] - shift, x_range[1] - shift
                level = self.levels.get(id(item))
                points = pyramid.level(x0, x1, pixels) if level is not None else None
                # under a level line the light band needs no more than a bin per 2 pixels: half the points to paint
                xs, ys = pyramid.view(x0, x1, pixels // 2 if points is not None else pixels)
                # without gaps, "all": the same line, and pyqtgraph checks no point for the path
                item.set_points(xs, ys, "all" if np.isfinite(ys).all() else "finite")
                if level is not None:
                    show_level(item, level, points)


def show_level(band: pg.PlotCurveItem, level: pg.PlotCurveItem, points: tuple[np.ndarray, np.ndarray] | None) -> None:
    """The level line over a light band where the view is dense; the band alone, in full, where
    not. Both pens are made once per curve (a pen per pan cost 19 ms over bench/ui_speed.py's 20 steps)."""
    full, light = _pens(band, level)
    if points is None:
        level.hide()
    else:
        # a line without gaps is joined point to point: pyqtgraph's "finite" path costs more per pan
        level.set_points(*points, "all" if np.isfinite(points[1]).all() else "finite")
        level.show()
    pen = full if points is None else light
    if band.opts["pen"] != pen:  # setPen keeps a copy: compared by value, not set again each pan
        band.setPen(pen)


def _pens(band: pg.PlotCurveItem, level: pg.PlotCurveItem) -> tuple[QPen, QPen]:
    """(the curve's own pen, the light solid one of its band), kept on the level item."""
    pens = level.property("pens")
    if pens is None:
        full = pg.mkPen(level.opts["pen"])
        light = pg.mkPen(full)
        light.setStyle(Qt.PenStyle.SolidLine)  # the band is a fill of the range, its style is the level's
        light.setColor(_faded(full.color(), _background(band)))
        pens = (full, light)
        level.setProperty("pens", pens)
    return pens


def _background(item: pg.PlotCurveItem) -> QColor:
    scene = item.scene()
    views = scene.views() if scene is not None else []
    return views[0].backgroundBrush().color() if views else QColor("white")


def _faded(color: QColor, background: QColor) -> QColor:
    """The colour at ENVELOPE_ALPHA over the background, opaque: what the export's translucent band
    looks like, painted without blending (a translucent band made a pan 30 % slower)."""
    a = min(color.alphaF(), ENVELOPE_ALPHA / 255)
    fg, bg = (color.redF(), color.greenF(), color.blueF()), (background.redF(), background.greenF(), background.blueF())
    r, g, b = (a * c + (1 - a) * d for c, d in zip(fg, bg, strict=True))
    return QColor.fromRgbF(r, g, b)


@dataclass(frozen=True)
class Drawn:
    item: pg.PlotCurveItem
    pyramid: MinMaxPyramid
    curve: Curve  # as the readout reads it
    level: pg.PlotCurveItem | None = None  # the level line of a series long enough to need one


def add_curves(session: Session, index: int, plot: pg.PlotItem, panel: Panel, runs: list[int]) -> list[Drawn]:
    """Panel `index`'s series, each run in its colour and each metric in its line style; with more
    than MANY_RUNS runs the lines turn see-through and the noisiest is drawn under the others,
    as the export draws them (app/render.py)."""
    s = session
    alpha = round(255 / max(1.0, len(runs) / MANY_RUNS) ** 0.5)
    drawn: list[tuple[float, Drawn]] = []
    series = [
        (j, ref, r, d) for j, ref in _styled(panel) for r in runs if (d := s.data(r, ref)) is not None and len(d[0])
    ]
    units = {s.unit(r, ref) for _, ref, r, _ in series}
    top = clip_top([d[1] for *_, d in series]) if len(units) == 1 and is_duration(*units) and not panel.log_y else None
    for j, ref, r, d in series:
        x, unit = s.x_of(r, d[0]), s.unit(r, ref)
        color = QColor(s.color(r))
        color.setAlpha(alpha)
        pen = pg.mkPen(color, width=1, style=STYLES[j % len(STYLES)])
        drawn_x, drawn_y = as_steps(x, d[1]) if drawn_as_steps(ref, unit) else (x, d[1])
        pyramid = MinMaxPyramid(drawn_x, drawn_y if top is None else np.minimum(drawn_y, top))
        xs, ys = pyramid.view(float(x[0]), float(x[-1]), 2000)
        # a bare curve item: PlotDataItem's extra layers doubled the cost of a pan's setData
        item = BareCurve(xs, ys, pen=pen, connect="finite")
        plot.addItem(item)
        item.setProperty("run", r)
        level = None
        if len(x) > PYRAMID.level_from * 200:  # dense enough, on a 200 px plot, to need a level line
            level = BareCurve(pen=pen, connect="finite")
            level.setProperty("run", r)
            plot.addItem(level)
            show_level(item, level, pyramid.level(float(x[0]), float(x[-1]), 2000))
        apart = MARK_APART * float(x[-1] - x[0])  # the whole run is shown first: about a mark's width
        for px, py in peaks(x, d[1], top, apart) if top is not None else ():
            mark = pg.TextItem(f"\u25b2 {reading(py, unit)}", color=QColor(s.color(r)), anchor=(0.5, 0.0))
            mark.setPos(px, top)
            plot.addItem(mark, ignoreBounds=True)
        drawn.append((ink(ys), Drawn(item, pyramid, Curve.of(index, r, ref, x, d[1], unit), level)))
    for rank, (_, c) in enumerate(sorted(drawn, key=lambda d: -d[0])):
        c.item.setZValue(rank)  # the noisiest first, under the quieter runs
        if c.level is not None:
            c.level.setZValue(len(drawn) + rank)  # every level line over every band
    return [c for _, c in drawn]


def _styled(panel: Panel) -> list[tuple[int, SeriesRef]]:
    """The shown series with the style of their place in the panel, hidden ones included."""
    return [(panel.refs.index(ref), ref) for ref in panel.shown()]


def process_tip(session: Session, panel: Panel, runs: list[int]) -> str:
    """The PIDs behind each command of a processes panel, per run (the panel matches processes by
    command across runs: app/rundata.py)."""
    s = session
    tips = [
        f"{ref.entity} in {s.run(r).name}: {pids}"
        for ref in panel.refs
        if ref.format == "pidstat"
        for r in runs
        if (pids := s.rundata.commands.get((r, ref)))
    ]
    return "\n".join(tips)


def run_gap(session: Session, panel: Panel, runs: list[int]) -> str:
    """'  ·  means within 3.1 %' for a throughput panel whose runs are close: its axis, fitted to the
    values, not from 0, magnifies their gap (the export says it too)."""
    if len(panel.refs) != 1 or panel.y_zero or panel.log_y or panel.refs[0].metric != "tps":
        return ""
    means = [mean_of(d[1]) for r in runs if (d := session.data(r, panel.refs[0])) is not None and len(d[1])]
    note = gap_note(means)
    return f"  \u00b7  {note}" if note else ""
