"""A pan step's shorter paths (bench/ui_speed.py, issue 24: pan/zoom <= 8 ms) give what
pyqtgraph's own give: a curve's points set and painted, its data bounds kept while only the view
moves."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QApplication

from benchlens.app.ui.chart_input import OffsetViewBox
from benchlens.app.ui.curves import BareCurve

NAN = math.nan


def painted(item: pg.PlotCurveItem, paint: object) -> QImage:
    """The item in a 300x120 view of x 0..10, y -2..2, painted by `paint` (its class's or pyqtgraph's)."""
    view = pg.PlotWidget()
    view.resize(300, 120)
    view.addItem(item)
    view.setRange(xRange=(0, 10), yRange=(-2, 2), padding=0)
    view.show()
    QApplication.processEvents()
    img = QImage(300, 120, QImage.Format.Format_ARGB32_Premultiplied)
    img.fill(0)
    p = QPainter(img)
    try:
        p.setTransform(item.deviceTransform(view.viewportTransform()))
        paint(item, p, None, view.viewport())  # type: ignore[operator]
    finally:
        p.end()
    view.close()
    return img


CURVES = [
    dict(pen=pg.mkPen("b", width=1), connect="all"),
    dict(pen=pg.mkPen(QColor(200, 10, 10, 120), width=1, style=Qt.PenStyle.DashLine), connect="finite"),
    dict(pen=pg.mkPen("g", width=1), connect="finite", antialias=True),
    dict(pen=pg.mkPen("k", width=3), connect="all"),  # wide: drawn as segments by pyqtgraph
    dict(pen=pg.mkPen("k", width=1), fillLevel=0.0, brush=pg.mkBrush(0, 0, 255, 80)),  # filled
    dict(pen=pg.mkPen("r", width=1), shadowPen=pg.mkPen("y", width=4)),
]


@pytest.mark.parametrize("opts", CURVES)
@pytest.mark.parametrize("gaps", [False, True])
def test_a_bare_curve_paints_the_pixels_pyqtgraph_paints(qtbot, opts: dict, gaps: bool) -> None:
    x = np.linspace(0, 10, 400)
    y = np.sin(x * 3) * 1.5
    if gaps:
        y[[50, 51, 200, 399]] = NAN
    connect = "finite" if gaps else opts.get("connect", "all")
    mine = painted(BareCurve(x, y, **{**opts, "connect": connect}), BareCurve.paint)
    theirs = painted(BareCurve(x, y, **{**opts, "connect": connect}), pg.PlotCurveItem.paint)
    assert mine == theirs
    assert any(mine.pixel(i, j) for i in range(0, 300, 3) for j in range(120))  # something was drawn


def test_set_points_is_set_data(qtbot) -> None:
    """The points a pan gives a curve, set as setData sets them: the same path and bounds, and the
    panel's value range follows them."""
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    x = np.arange(100, dtype=np.float64)
    mine, theirs = BareCurve(x, x * 0.0), BareCurve(x, x * 0.0)
    plot.addItem(mine)
    plot.addItem(theirs)
    plot.show()
    QApplication.processEvents()
    for k, y in enumerate([np.cos(x / 7) * 40, np.where(x % 9 == 0, NAN, x * 2.5)]):
        connect = "all" if k == 0 else "finite"
        mine.set_points(x[10:], y[10:], connect)
        theirs.setData(x[10:], y[10:], connect=connect)
        assert mine.opts == theirs.opts
        assert mine.getPath() == theirs.getPath()
        assert mine.dataBounds(1) == theirs.dataBounds(1) and mine.boundingRect() == theirs.boundingRect()
        QApplication.processEvents()
        lo, hi = plot.getPlotItem().vb.viewRange()[1]  # fitted to the new points
        y0, y1 = float(np.nanmin(y[10:])), float(np.nanmax(y[10:]))
        assert lo <= y0 and hi >= y1 and hi - lo < 1.2 * (y1 - y0)


def test_a_view_change_keeps_a_curves_data_bounds(qtbot) -> None:
    """The points did not change, only where they are seen: their bounds are not worked out again
    (pyqtgraph dropped them with each view change, ~65 times a pan step); the bounding rect is."""
    plot = pg.PlotWidget()
    qtbot.addWidget(plot)
    x = np.arange(1000, dtype=np.float64)
    item = BareCurve(x, np.sin(x / 50), pen=pg.mkPen("b", width=1))
    plot.addItem(item)
    plot.show()
    QApplication.processEvents()
    bounds = item.dataBounds(1)
    rect = item.boundingRect()
    plot.setXRange(100, 400, padding=0)
    QApplication.processEvents()  # the view's transform changed: every item hears of it
    assert item.dataBounds(1) is bounds
    assert item.boundingRect() != rect  # its pixel padding is in the new view's units
    assert item.boundingRect() == pg.PlotCurveItem.boundingRect(item)


def test_a_pan_moves_a_panels_view_once_to_what_pyqtgraph_gives(qtbot) -> None:
    """A pan's new x range and its new points, y fitted to them: the panel's view moves once (it
    moved twice: to the new x with the old y while fitting y, then to the new y), to the range
    pyqtgraph's own view box fits."""
    views, widgets = [], []
    for vb in (OffsetViewBox(lambda *_: None, lambda *_: None), pg.ViewBox()):
        widget = pg.PlotWidget(viewBox=vb)
        qtbot.addWidget(widget)
        widgets.append(widget)
        widget.getPlotItem().getAxis("left").setWidth(60)  # both view boxes of one size
        widget.resize(600, 200)
        widget.show()
        x = np.arange(1000, dtype=np.float64)
        item = BareCurve(x, np.sin(x / 40) * (1 + x / 100), pen=pg.mkPen("b", width=1))
        vb.addItem(item)
        shifted = BareCurve(x, x * 0.05, pen=pg.mkPen("r", width=1))  # a run dragged in time
        shifted.setPos(30.0, 0.0)
        vb.addItem(shifted)
        QApplication.processEvents()
        views.append((vb, item))
    moves = []
    views[0][0].sigTransformChanged.connect(lambda *_: moves.append(1))
    for lo, hi in [(100.0, 300.0), (150.0, 350.0), (700.0, 760.0)]:
        moves.clear()
        for vb, item in views:
            vb.setXRange(lo, hi, padding=0)
            x = np.arange(int(lo), int(hi), dtype=np.float64)
            item.set_points(x, np.sin(x / 40) * (1 + x / 100), "all")  # the points for the view
            vb.prepareForPaint()  # y fitted now, as app/ui/charts.py does after a pan
        assert len(moves) == 1
        assert views[0][0].viewRange() == views[1][0].viewRange()
        assert views[0][0].childGroup.transform() == views[1][0].childGroup.transform()
