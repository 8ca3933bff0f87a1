"""A pan step's shorter paths (bench/ui_speed.py, issue 24: pan/zoom <= 8 ms) give what
pyqtgraph's own give: a curve's points set and painted, its data bounds kept while only the view
moves."""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPicture
from PySide6.QtWidgets import QApplication, QGraphicsScene, QGraphicsView

from benchlens.app.ui.axes import TimeAxis, ValueAxis
from benchlens.app.ui.chart_input import OffsetViewBox
from benchlens.app.ui.curves import BareCurve, show_level
from benchlens.app.ui.lazy_column import data_in_view, in_view
from tests.ui.conftest import close_window, laptop

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
    moves, fits = [], []
    mine = views[0][0]
    mine.sigTransformChanged.connect(lambda *_: moves.append(1))
    fit = mine.childrenBounds
    mine.childrenBounds = lambda *a, **k: fits.append(1) or fit(*a, **k)  # type: ignore[method-assign]
    for lo, hi in [(100.0, 300.0), (150.0, 350.0), (700.0, 760.0)]:
        moves.clear()
        fits.clear()
        for vb, item in views:
            vb.setXRange(lo, hi, padding=0)
            x = np.arange(int(lo), int(hi), dtype=np.float64)
            item.set_points(x, np.sin(x / 40) * (1 + x / 100), "all")  # the points for the view
            vb.prepareForPaint()  # y fitted now, as app/ui/charts.py does after a pan
        for _ in range(3):  # and painted
            QApplication.processEvents()
        assert len(moves) == 1
        assert len(fits) == 1  # not again at the paint: the view's own move changed no item's bounds
        assert views[0][0].viewRange() == views[1][0].viewRange()
        assert views[0][0].childGroup.transform() == views[1][0].childGroup.transform()


def specs_of(specs: object) -> object:
    """An axis' draw specs as plain values: pens by colour and width, points and rects as tuples."""
    if specs is None:
        return None
    (pen, a, b), ticks, texts = specs  # type: ignore[misc]
    return (
        (pen.color().rgba(), pen.widthF(), a.x(), a.y(), b.x(), b.y()),
        [(t.color().rgba(), t.widthF(), p.x(), p.y(), q.x(), q.y()) for t, p, q in ticks],
        [(r.x(), r.y(), r.width(), r.height(), int(f), s) for r, f, s in texts],
    )


@pytest.mark.parametrize("kind", ["value", "value-no-grid", "value-log", "time-relative", "time-clock", "ticks-set"])
def test_an_axis_is_laid_out_as_pyqtgraph_lays_it_out(qtbot, kind: str) -> None:
    """The ticks, grid lines and labels (their places, pens and texts) of pyqtgraph's own layout."""
    side = "left" if kind.startswith("value") or kind == "ticks-set" else "bottom"
    axis = ValueAxis("ms") if side == "left" else TimeAxis(kind == "time-clock", "relative to run start")
    widget = pg.PlotWidget(axisItems={side: axis})
    qtbot.addWidget(widget)
    widget.resize(700, 220)
    widget.show()
    plot = widget.getPlotItem()
    if kind != "value-no-grid":
        plot.showGrid(x=True, y=True, alpha=0.25)
    if kind == "value-log":
        plot.setLogMode(y=True)
    if kind == "ticks-set":
        axis.setTicks([[(0.5, "half"), (2.0, "two")]])
    labelled = 0
    ranges = [(0.0, 97.3), (-3.7, 12.25), (1e-3, 2.9e-3), (0.0, 1e6), (41.0, 41.0000001)]
    if kind == "ticks-set":
        ranges = [(0.0, 3.0), (-1.0, 5.0)]
    if kind == "value-log":  # decades: the range is of their exponents
        ranges = [(0.0, 3.0), (-1.0, 2.5), (-2.2, 4.1), (1.0, 6.0)]
    if side == "bottom":
        ranges = [(1.79e9 + a * 600, 1.79e9 + a * 600 + w) for a, w in [(0, 30), (1, 3600), (2, 86400), (3, 7.5)]]
    for lo, hi in ranges:
        if side == "left":
            plot.setYRange(lo, hi, padding=0)
        else:
            plot.setXRange(lo, hi, padding=0)
        for _ in range(5):  # laid out: the axis' width follows its labels
            QApplication.processEvents()
        for _ in range(2):  # the second time, the label sizes measured before are used
            pic = QPicture()
            p = QPainter(pic)
            try:
                mine = specs_of(axis.generateDrawSpecs(p))
                theirs = specs_of(pg.AxisItem.generateDrawSpecs(axis, p))
            finally:
                p.end()
            assert mine == theirs, (kind, lo, hi)
            assert mine is not None and mine[1]  # ticks
            labelled += bool(mine[2])
    assert labelled >= 2 * len(ranges) - 2  # labels, but where a range leaves them no room
    if kind != "ticks-set":  # each label's size measured once (ticks set by hand are laid out by pyqtgraph)
        assert {s for *_, s in mine[2]} <= set(axis._text_rects)


def test_a_pan_lays_out_only_the_axes_shown(qtbot, db, tmp_path) -> None:
    """The panels' hidden axes (pyqtgraph's top and right ones, their time axes: the strip shows
    time) no longer follow the view: a pan laid out each of them, 21 a step of bench/ui_speed.py."""
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.waitUntil(lambda: not w.chart.waiting, timeout=5000)
        plots = [*w.chart.plots, w.chart.axis_strip.getPlotItem()]
        moved: list[str] = []
        for plot in plots:
            for name in ("top", "right", "bottom", "left"):
                axis = plot.getAxis(name)
                axis.setRange = lambda lo, hi, a=axis, n=name: moved.append(n) or pg.AxisItem.setRange(a, lo, hi)
        x0, x1 = w.chart.plots[0].vb.viewRange()[0]
        w.chart.zoom_to(x0 + (x1 - x0) * 0.2, x1 - (x1 - x0) * 0.2)
        QApplication.processEvents()
        shown = {(id(p), n) for p in plots for n in ("top", "right", "bottom", "left") if p.getAxis(n).isVisible()}
        assert moved and set(moved) <= {"bottom", "left"}  # the strip's time axis, the value axes refitted
        assert len(shown) == len(plots) + 1  # a value axis per panel; the strip's time axis and blank left one
        for plot in plots:
            for name in ("top", "right", "bottom", "left"):
                axis = plot.getAxis(name)
                assert (axis.linkedView() is not None) == axis.isVisible(), name
    finally:
        close_window(w)


def test_a_panel_repaints_for_panning_and_the_mouse_still_finds_items(qtbot, db, tmp_path) -> None:
    """Every pan moves every curve: a panel's scene keeps no index of where its items are (Qt's
    BSP tree was updated for each curve moved) and a repaint covers one rect around what changed
    (not a region of a rect per item); what is under the mouse is still found. That the window's
    pixels stay the same, as drawn anew and as repainted pan after pan: bench/ui_pixels.py."""
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.waitUntil(lambda: not w.chart.waiting, timeout=5000)
        views = [*w.chart.widgets, w.chart.axis_strip]
        assert {v.scene().itemIndexMethod() for v in views} == {QGraphicsScene.ItemIndexMethod.NoIndex}
        assert {v.viewportUpdateMode() for v in views} == {QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate}
        plot = w.chart.plots[0]
        title = plot.titleLabel
        at = title.mapToScene(title.boundingRect().center())
        assert title in plot.scene().items(at)
    finally:
        close_window(w)


def _four_more_panels(qtbot, w):
    """Every run compared with four more panels than the default (a column taller than the
    laptop's screen), built; the column's scroll bar and viewport."""
    s, chart = w.session, w.chart
    s.add_runs([r.id for r in s.runs()])
    qtbot.waitUntil(lambda: not chart.waiting, timeout=5000)
    s.comparison.panels = s.comparison.panels + s.more_panels()[:4]
    s.comparison.layout_is_default = False
    s.comparisonChanged.emit()
    qtbot.waitUntil(lambda: not chart.waiting, timeout=5000)
    return chart.column_scroll.verticalScrollBar(), chart.column_scroll.viewport()


def test_a_panel_showing_only_its_title_draws_a_pan_once_scrolled_to(qtbot, db, tmp_path) -> None:
    """A panel of which only the title row shows at the bottom of the column (the laptop's fifth)
    gets a pan's time range and points when its plot area is scrolled into view, not with every pan."""
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        chart = w.chart
        bar, port = _four_more_panels(qtbot, w)

        def title_only(i: int) -> int:  # the scroll that shows panel i's title row at the bottom, not its plot area
            top = chart.slots[i].getPlotItem().vb.sceneBoundingRect().top()  # the rows above its plot area
            return chart.slots[i].y() + int(top) - port.height() - 4

        k = max(i for i in range(1, len(chart.slots)) if 0 < title_only(i) <= bar.maximum())
        panel = chart.slots[k]
        bar.setValue(title_only(k))
        QApplication.processEvents()
        assert in_view(panel) and not data_in_view(panel) and data_in_view(chart.slots[k - 1])
        x0, x1 = chart.nav.whole
        chart.zoom_to(x0 + (x1 - x0) * 0.4, x1 - (x1 - x0) * 0.4)
        QApplication.processEvents()
        lead = chart.built_plots()[0].vb.viewRange()[0]
        assert panel.getPlotItem().vb.viewRange()[0] != lead  # nor its time range: it follows when it shows
        assert np.allclose(chart.built_plots()[k - 1].vb.viewRange()[0], lead)
        assert k in chart.decimated.stale and k - 1 not in chart.decimated.stale
        bar.setValue(bar.value() + 60)  # its plot area comes into view: the pan's points now
        QApplication.processEvents()
        assert data_in_view(panel) and k not in chart.decimated.stale
        assert np.allclose(panel.getPlotItem().vb.viewRange()[0], lead)
        mine = [item for p, item, _ in chart.decimated if p == k]
        drawn = [item.getData()[0].copy() for item in mine]
        vb = chart.plots[0].vb
        chart.decimated.redraw([k], vb.viewRange()[0], max(int(vb.width()), 200))  # what the view gives
        assert mine and all(np.array_equal(a, item.getData()[0]) for a, item in zip(drawn, mine, strict=True))
        whole = [len(c.x) for c in chart.curves if c.panel == k]
        assert any(len(a) < n for a, n in zip(drawn, whole, strict=False))  # not whole runs
    finally:
        close_window(w)


def test_a_pan_leaves_a_bands_pen_and_bounds_as_they_are(qtbot) -> None:
    """The light band under a long run's level line keeps its pen from one pan to the next: it was
    set again with every pan (pyqtgraph keeps a copy of the pen, never the one compared), and that
    dropped the band's bounds each time."""
    x = np.arange(5000, dtype=np.float64)
    band = BareCurve(x, np.sin(x / 30), pen=pg.mkPen("b", width=1, style=Qt.PenStyle.DashLine))
    level = BareCurve(pen=pg.mkPen("b", width=1, style=Qt.PenStyle.DashLine))
    points = (x[::50], np.sin(x[::50] / 30))
    show_level(band, level, points)
    light = band.opts["pen"]
    assert light.style() == Qt.PenStyle.SolidLine  # the band's light pen under the level line
    bounds = band.dataBounds(1)
    for _ in range(3):  # pans that keep the view dense: the band stays light
        show_level(band, level, points)
        assert band.opts["pen"] is light and band.dataBounds(1) is bounds
    show_level(band, level, None)  # zoomed in: the band alone, in the run's own pen
    assert band.opts["pen"].style() == Qt.PenStyle.DashLine and not level.isVisible()


def test_a_panel_moved_into_view_by_the_column_above_it_catches_up(qtbot, db, tmp_path) -> None:
    """A panel showing only its title row is brought into view by a shorter panel above it, with
    no scroll: it gets the time range and points of the pan it missed."""
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        chart = w.chart
        bar, port = _four_more_panels(qtbot, w)
        k = next(i for i in range(2, len(chart.slots)) if not data_in_view(chart.slots[i]))
        panel, above = chart.slots[k], chart.slots[k - 1]
        title = int(panel.getPlotItem().vb.sceneBoundingRect().top())  # the rows above its plot area
        chart.resize_panel(k - 1, above.height() + port.height() - title // 2 - panel.y(), finished=False)
        for _ in range(5):
            QApplication.processEvents()
        assert bar.value() == 0 and in_view(panel) and not data_in_view(panel)  # its title row at the bottom
        x0, x1 = chart.nav.whole
        chart.zoom_to(x0 + (x1 - x0) * 0.4, x1 - (x1 - x0) * 0.4)
        QApplication.processEvents()
        lead = chart.built_plots()[0].vb.viewRange()[0]
        assert panel.getPlotItem().vb.viewRange()[0] != lead
        above.setMinimumHeight(above.height() - 80)  # shorter (as the label lane may get): the panel moves up
        for _ in range(5):
            QApplication.processEvents()
        assert bar.value() == 0 and data_in_view(panel)
        assert np.allclose(panel.getPlotItem().vb.viewRange()[0], lead) and k not in chart.decimated.stale
    finally:
        close_window(w)
