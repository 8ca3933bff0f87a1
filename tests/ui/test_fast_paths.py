"""The window's faster paths for a pan (bench/ui_speed.py, issue 24) give what pyqtgraph's own
give: a curve's data bounds (what a panel's value range is fitted to) and a value axis' pixels."""

from __future__ import annotations

import math
from types import MethodType

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from benchlens.app.ui.axes import TimeAxis, ValueAxis
from benchlens.app.ui.curves import BareCurve

NAN, INF = math.nan, math.inf


@pytest.mark.parametrize(
    "ys",
    [
        [3.0, 1.0, 4.0, 1.0, 5.0, 9.0],
        [NAN, 2.0, NAN, 7.5, -1.0, NAN],  # gaps
        [1.0, INF, 2.0, -INF, 3.0, 0.5],  # infinities left out
        [NAN] * 6,  # nothing to fit
        [INF, INF, NAN, INF, NAN, INF],
    ],
)
@pytest.mark.parametrize("ortho", [None, (1.0, 4.0), (10.0, 20.0)])
def test_a_curves_data_bounds_are_pyqtgraphs(qtbot, ys: list[float], ortho: tuple[float, float] | None) -> None:
    x = np.arange(6, dtype=np.float64)
    y = np.array(ys)
    mine, theirs = BareCurve(x, y, connect="finite"), pg.PlotCurveItem(x, y, connect="finite")
    for ax in (0, 1):
        a, b = mine.dataBounds(ax, orthoRange=ortho), theirs.dataBounds(ax, orthoRange=ortho)
        assert np.array_equal(np.array(a, dtype=float), np.array(b, dtype=float), equal_nan=True), (ax, a, b)
        assert mine.dataBounds(ax, orthoRange=ortho) is a  # cached as pyqtgraph caches


@pytest.mark.parametrize("side", ["left", "bottom"])
def test_an_axis_paints_the_pixels_pyqtgraph_paints(qtbot, side: str) -> None:
    """A value axis with its grid; the time axis, at seconds and on the clock."""
    made = ValueAxis("ms") if side == "left" else TimeAxis(side == "bottom", "relative to run start")
    widget = pg.PlotWidget(axisItems={side: made})
    qtbot.addWidget(widget)
    widget.resize(900, 180)
    widget.show()
    plot = widget.getPlotItem()
    plot.showGrid(x=True, y=True, alpha=0.25)  # the grid lines are the axis' long ticks
    axis = plot.getAxis(side)
    mine_paint, mine_draw = type(axis).paint, type(axis).drawPicture
    ranges = [(0.0, 97.3), (-3.7, 12.25), (1e-3, 2.9e-3)] if side == "left" else [(1.79e9, 1.79e9 + 3600.0)] * 3
    # moved by whole pixels, as into the axis' cache in the window; and by less (drawn as pyqtgraph does)
    for (lo, hi), (dx, dy) in zip(ranges, [(0.0, 0.0), (3.0, 1.0), (1.5, 0.25)], strict=True):
        if side == "left":
            plot.setYRange(lo, hi, padding=0)
        else:
            plot.setXRange(lo + dx * 77, hi + dy * 999, padding=0)
        for _ in range(5):  # the axis follows the view's new range
            QApplication.processEvents()
        images = []
        for mine in (True, False):  # ours, then pyqtgraph's own paint and drawPicture
            axis.picture = None
            paint = mine_paint if mine else pg.AxisItem.paint
            axis.drawPicture = MethodType(mine_draw if mine else pg.AxisItem.drawPicture, axis)
            br = axis.boundingRect()
            img = QImage(int(br.width()) + 8, int(br.height()) + 8, QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(0)
            p = QPainter(img)
            p.translate(-br.x() + 2 + dx, -br.y() + 2 + dy)
            paint(axis, p, None, None)
            p.end()
            images.append(img)
        assert images[0] == images[1], (lo, hi)
        assert any(images[0].pixel(x, y) for x in range(0, images[0].width(), 5) for y in range(images[0].height()))
