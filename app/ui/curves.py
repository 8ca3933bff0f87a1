"""The curves of the chart column: each run's series in its colour and each metric in its line
style, drawn from a min/max pyramid (app/analysis/decimate.py) so that any pan or zoom asks for
about two points per pixel column and a 1 s stall still shows; the panels scrolled out of view
skip a pan or zoom and catch up when they come back."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from benchlens.app.analysis.decimate import MinMaxPyramid
from benchlens.app.analysis.layout import Panel
from benchlens.app.render import MANY_RUNS
from benchlens.app.ui.readout import Curve
from benchlens.app.ui.session import Session

STYLES = [Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine]


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

    def __iter__(self) -> Iterator[tuple[int, pg.PlotCurveItem, MinMaxPyramid]]:
        return iter(self.entries)

    def add(self, panel: int, item: pg.PlotCurveItem, pyramid: MinMaxPyramid) -> None:
        self.entries.append((panel, item, pyramid))

    def show_range(self, x_range: tuple[float, float], pixels: int, shown: set[int], panels: int) -> None:
        """A new x range: the panels in view get their points now, the others when they come back."""
        self.stale = set(range(panels)) - shown
        self.redraw(shown, x_range, pixels)

    def redraw(self, panels: Iterable[int], x_range: tuple[float, float], pixels: int) -> None:
        """The curves of these panels get their pyramid's points for x_range on `pixels` columns."""
        wanted = set(panels)
        for panel, item, pyramid in self.entries:
            if panel in wanted:
                shift = item.pos().x()  # a run being dragged is drawn shifted
                xs, ys = pyramid.view(x_range[0] - shift, x_range[1] - shift, pixels)
                item.setData(xs, ys, connect="finite")


@dataclass(frozen=True)
class Drawn:
    item: pg.PlotCurveItem
    pyramid: MinMaxPyramid
    curve: Curve  # as the readout reads it


def add_curves(session: Session, index: int, plot: pg.PlotItem, panel: Panel, runs: list[int]) -> list[Drawn]:
    """Panel `index`'s series, each run in its colour and each metric in its line style; with more
    than MANY_RUNS runs the lines turn see-through and the noisiest is drawn under the others,
    as the export draws them (app/render.py)."""
    s = session
    alpha = round(255 / max(1.0, len(runs) / MANY_RUNS) ** 0.5)
    drawn: list[tuple[float, Drawn]] = []
    for ref in panel.shown():
        j = panel.refs.index(ref)  # the style of its place in the panel, hidden ones included
        for r in runs:
            d = s.data(r, ref)
            if d is None or not len(d[0]):
                continue
            x = s.x_of(r, d[0])
            color = QColor(s.color(r))
            color.setAlpha(alpha)
            pen = pg.mkPen(color, width=1, style=STYLES[j % len(STYLES)])
            pyramid = MinMaxPyramid(x, d[1])
            xs, ys = pyramid.view(float(x[0]), float(x[-1]), 2000)
            # a bare curve item: PlotDataItem's extra layers doubled the cost of a pan's setData
            item = pg.PlotCurveItem(xs, ys, pen=pen, connect="finite")
            plot.addItem(item)
            item.setProperty("run", r)
            drawn.append((ink(ys), Drawn(item, pyramid, Curve.of(index, r, ref, x, d[1], s.unit(r, ref)))))
    for rank, (_, c) in enumerate(sorted(drawn, key=lambda d: -d[0])):
        c.item.setZValue(rank)  # the noisiest first, under the quieter runs
    return [c for _, c in drawn]
