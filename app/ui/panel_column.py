"""The pieces of the chart column: a panel (a plot with benchlens' own context menu), the border
under it that resizes it when dragged, and the time axis strip that stays in view under the
scrolling column, x-linked to the panels."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QContextMenuEvent, QMouseEvent, QPalette
from PySide6.QtWidgets import QFrame, QGraphicsScene, QGraphicsView, QWidget

from benchlens.app.ui.axes import unlink_hidden
from benchlens.app.ui.theme import LIGHT, ChartTheme

MIN_PLOT_PX = 120  # the shortest plot area that still shows a drop's shape (issue 12: 4 px was useless)
PANEL_CHROME_PX = 32  # the panel's title row and margins around its plot area (measured: 150 px gave 118)
MIN_PANEL_PX = MIN_PLOT_PX + PANEL_CHROME_PX
AXIS_WIDTH = 72  # every value axis the same width, so the panels' plot areas line up with the time axis
HANDLE_PX = 6


class PanelPlot(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph is untyped
    """One panel. pyqtgraph's own menu (whose Export… fails on SVG) is off: a right click asks
    the chart for the panel menu. A left press on a link of the title row (the legend's
    entries) goes to `on_link` instead of starting a pan."""

    def __init__(
        self,
        index: int,
        on_menu: Callable[[int, QPoint], None],
        on_link: Callable[[int, str], None] | None = None,
        theme: ChartTheme = LIGHT,
        **kw: object,
    ) -> None:
        super().__init__(background=theme.background, **kw)
        self.index = index
        self.on_menu = on_menu
        self.on_link = on_link
        self.getPlotItem().setMenuEnabled(False)
        for_panning(self)
        self.getAxis("left").setWidth(AXIS_WIDTH)
        color_axes(self.getPlotItem(), theme)
        self.setMinimumHeight(MIN_PANEL_PX)
        self.setMouseTracking(True)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        event.accept()
        self.on_menu(self.index, event.globalPos())

    def link_at(self, pos: QPointF) -> str:
        """The link of the title row under a point of the view ('' if none)."""
        text = self.getPlotItem().titleLabel.item  # the QGraphicsTextItem of the title
        local = text.mapFromScene(self.mapToScene(pos.toPoint()))
        if not text.boundingRect().contains(local):
            return ""
        return str(text.document().documentLayout().anchorAt(local))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        link = self.link_at(event.position()) if event.button() == Qt.MouseButton.LeftButton else ""
        if link and self.on_link is not None:
            event.accept()
            self.on_link(self.index, link)
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        hand = bool(self.on_link and not event.buttons() and self.link_at(event.position()))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if hand else Qt.CursorShape.ArrowCursor)
        super().mouseMoveEvent(event)


class PanelBorder(QFrame):
    """The border under a panel: drag it to make the panel taller or shorter (never below a
    readable height); the column grows and scrolls."""

    def __init__(self, index: int, on_resize: Callable[[int, int, bool], None], height_of: Callable[[int], int]):
        super().__init__()
        self.index = index
        self.on_resize = on_resize
        self.height_of = height_of
        self.setFixedHeight(HANDLE_PX)
        self.setCursor(Qt.CursorShape.SplitVCursor)
        self.setToolTip("Drag to resize the panel above")
        self.setFrameShape(QFrame.Shape.HLine)
        self.setFrameShadow(QFrame.Shadow.Plain)  # one line in the palette's mid tone, light or dark
        self.setForegroundRole(QPalette.ColorRole.Mid)
        self._start: tuple[float, int] | None = None  # global y and the panel's height at the press

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._start = (event.globalPosition().y(), self.height_of(self.index))
            event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._start is not None:
            self.on_resize(self.index, self._height(event), False)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._start is not None:
            self.on_resize(self.index, self._height(event), True)
            self._start = None

    def _height(self, event: QMouseEvent) -> int:
        assert self._start is not None
        y0, h0 = self._start
        # global coordinates: the border itself moves while the panel above grows
        return max(MIN_PANEL_PX, round(h0 + event.globalPosition().y() - y0))


class TimeAxisStrip(pg.PlotWidget):  # type: ignore[misc]
    """The time axis under the column: a plot with no height of its own but the panels' value
    axis width, so its ticks sit under theirs; x-linked to the top panel."""

    def __init__(
        self, axis_items: dict[str, object] | None = None, theme: ChartTheme = LIGHT, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent=parent, background=theme.background, axisItems=axis_items or {})
        plot = self.getPlotItem()
        for_panning(self)
        color_axes(plot, theme)
        plot.setMenuEnabled(False)
        plot.setMouseEnabled(x=False, y=False)
        plot.vb.disableAutoRange()  # it follows the top panel; fitting its own nothing would move them all
        left = plot.getAxis("left")
        left.setWidth(AXIS_WIDTH)
        left.setStyle(showValues=False)
        left.setPen(pg.mkPen(None))
        unlink_hidden(plot)  # its top and right axes
        plot.vb.setMaximumHeight(0)
        plot.vb.setMinimumHeight(0)
        self.setFixedHeight(48)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)


def for_panning(view: pg.PlotWidget) -> None:
    """A view that every pan repaints: its scene keeps no index of where its items are (Qt's BSP
    tree, by default: every pan gives each curve new points and it was updated for each, to find
    among a panel's twenty-odd items those to paint), and a repaint covers the one rect around
    what changed (pyqtgraph's minimal update painted a region of many rects, one per item). What is
    painted, and in which order, stays the same."""
    view.scene().setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
    view.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)


def color_axes(plot: pg.PlotItem, theme: ChartTheme) -> None:
    """Axis lines, tick labels and axis titles in the theme's colours. pyqtgraph's SI prefix is
    off: our tick labels carry the unit (app/ticks.py), and the prefix rewrote each axis title
    on every pan (a third of a pan step's Python time)."""
    for name in ("top", "right"):  # hidden, but linked to the view: they too rewrote their titles
        plot.getAxis(name).enableAutoSIPrefix(False)
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.enableAutoSIPrefix(False)
        axis.setPen(pg.mkPen(theme.axis))
        axis.setTextPen(pg.mkPen(theme.text))
        axis.labelStyle = {**axis.labelStyle, "color": theme.text}
