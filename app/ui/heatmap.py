"""A heatmap panel in the window (issue #25): every entity of a `SOURCE:METRIC:*` panel as a row
of a pyqtgraph ImageItem, the first row at the top, each run's rows stacked, the entity names on
the value axis, the colour scale with its clamp in the plot's corner, and the entity and value
under the cursor. The picture is the Grid of app/analysis/heatmap.py, as the export draws it
(app/heatmap_render.py): the same rows, bins and colours."""

from __future__ import annotations

from functools import partial

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QLinearGradient

from benchlens.app.analysis import heatmap
from benchlens.app.analysis.heatmap import HEATMAP_FROM, LUT, Grid, Row, SharedX, grid, heatmap_ref, members
from benchlens.app.analysis.layout import Panel
from benchlens.app.ticks import reading
from benchlens.app.ui.session import Session

COLUMNS = 1600  # time bins: about a wide screen's pixels, each the highest value of its bin
MAX_NAMES = 24  # row names on the value axis at most (every k-th row beyond)


def add_heatmap(session: Session, plot: pg.PlotItem, panel: Panel, runs: list[int]) -> HeatmapPanel | None:
    """Panel `panel` as a heatmap on `plot`; None when it is not a `*` panel or no run has more
    than HEATMAP_FROM entities (its entities are lines then: as_lines)."""
    every = heatmap_ref(panel.shown())
    if every is None:
        return None
    rows: list[Row] = []
    most, unit, xs = 0, "", SharedX()
    for r in runs:
        mine = [(ref, d) for ref in members(every, session.available(r)) if (d := session.data(r, ref)) is not None]
        most = max(most, len(mine))
        rows += [Row(r, ref.entity, xs.of(r, d[0], partial(session.x_of, r)), d[1]) for ref, d in mine if len(d[0])]
        unit = unit or next((session.unit(r, ref) for ref, _ in mine), "")
    if most <= HEATMAP_FROM or not rows:
        return None
    heat = HeatmapPanel(plot, rows, panel.order, unit, {r: session.run(r).name for r in runs})
    heat.mark_runs(plot, {r: QColor(session.color(r)) for r in runs})
    return heat


def as_lines(session: Session, panel: Panel, runs: list[int]) -> Panel:
    """A `*` panel of few entities as the panel of their lines (any other panel as it is)."""
    return heatmap.as_lines(panel, [session.available(r) for r in runs])


class HeatmapPanel:
    """The image, axis names, colour scale and hover readout of one heatmap panel."""

    def __init__(self, plot: pg.PlotItem, rows: list[Row], order: str, unit: str, names: dict[int, str]) -> None:
        self.rows, self.order, self.plot = rows, order, plot
        self.extent = (min(float(r.x[0]) for r in rows), max(float(r.x[-1]) for r in rows))
        self.grid: Grid = grid(rows, *self.extent, COLUMNS, order, unit)
        self.names = names  # run id -> run name, for the readout of stacked runs
        n = len(self.grid.rows)
        self.image = pg.ImageItem(axisOrder="row-major")
        self._show()
        plot.addItem(self.image)
        plot.setYRange(0, n, padding=0)
        plot.setLimits(yMin=0, yMax=n)
        plot.setMouseEnabled(y=False)
        plot.showGrid(x=True, y=False)  # rows are not values: no lines across them
        self.scale = _scale(self.grid)
        self.scale.setParentItem(plot.vb)
        self.label = pg.TextItem("", anchor=(0, 1), fill=QColor(255, 255, 255, 220), color=QColor(0, 0, 0))
        self.label.hide()
        plot.addItem(self.label, ignoreBounds=True)

    def _show(self) -> None:
        """The grid as the image (its colours as they are: levels 0-255, never stretched to the
        image's own range; row 0 at the top) and the rows' names on the value axis."""
        g, n = self.grid, len(self.grid.rows)
        self.image.setImage(g.rgba()[::-1], autoLevels=False, levels=(0, 255))
        self.image.setRect(QRectF(float(g.edges[0]), 0.0, float(g.edges[-1] - g.edges[0]), float(n)))
        every = max(1, -(-n // MAX_NAMES))
        ticks = [(n - k - 0.5, e) for k, (_, e) in enumerate(g.rows) if k % every == 0]
        self.plot.getAxis("left").setTicks([ticks])

    def rebin(self, x0: float, x1: float) -> None:
        """The bins of the time in view (after a zoom or pan settles): as fine as the samples allow,
        as an export of that window draws them."""
        x0, x1 = max(x0, self.extent[0]), min(x1, self.extent[1])
        if x1 <= x0 or (x0, x1) == (float(self.grid.edges[0]), float(self.grid.edges[-1])):
            return
        self.grid = grid(self.rows, x0, x1, COLUMNS, self.order, self.grid.unit)
        self._show()

    def mark_runs(self, plot: pg.PlotItem, colors: dict[int, QColor]) -> None:
        """Two runs stacked: a rule between their rows and each run's name, in its colour, at the
        top left of its rows."""
        rows, n = self.grid.rows, len(self.grid.rows)
        starts = [k for k in range(n) if k == 0 or rows[k][0] != rows[k - 1][0]]
        if len(starts) < 2:
            return
        for k in starts:
            run = rows[k][0]
            if k:
                plot.addItem(pg.InfiniteLine(n - k, angle=0, pen=pg.mkPen(QColor(40, 40, 40), width=2)))
            name = pg.TextItem(
                self.names.get(run, ""), color=colors.get(run), anchor=(0, 0), fill=QColor(255, 255, 255, 200)
            )
            name.setPos(float(self.grid.edges[0]), float(n - k))
            plot.addItem(name, ignoreBounds=True)

    def readout(self, x: float, y: float) -> str:
        """The entity and value at a point of the plot ('' outside the rows)."""
        n = len(self.grid.rows)
        row = n - 1 - int(np.floor(y))
        got = self.grid.at(x, row)
        if got is None:
            return ""
        run, entity, value = got
        who = f"{self.names[run]}: " if len(set(self.names)) > 1 and run in self.names else ""
        shown = reading(value, self.grid.unit) if np.isfinite(value) else "no sample"
        return f"{who}{entity} {shown}"

    def hover(self, at: QPointF) -> None:
        """The readout beside the cursor (view coordinates)."""
        text = self.readout(at.x(), at.y())
        self.label.setText(text)
        self.label.setPos(at)
        self.label.setVisible(bool(text))


def _scale(g: Grid) -> pg.GradientLegend:
    """The colour bar in the plot's top right corner: from 0 to the clamp, the clamp said."""
    legend = pg.GradientLegend((12, 60), (-70, 8))
    grad = QLinearGradient()
    for k in (0, 64, 128, 192, 255):
        grad.setColorAt(k / 255, QColor(*(int(c) for c in LUT[k][:3])))
    legend.setGradient(grad)
    top = g.scale_text().split("\u2013", 1)[-1].strip()
    legend.setLabels({"0": 0.0, top: 1.0})
    return legend
