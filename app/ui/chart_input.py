"""What the charts do with the mouse and keys (app/ui/charts.py's ComparisonView is one): Ctrl+drag
slides a run in time, Shift+drag marks a stretch for a note, the crosshair and its readout follow
the mouse, the keys zoom and pan, runs and series are dropped onto the panels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import QWidget

from benchlens.app.ui import mime
from benchlens.app.ui.heatmap import HeatmapPanel
from benchlens.app.ui.legends import RunLegend
from benchlens.app.ui.navigation import TimeNavigator
from benchlens.app.ui.panel_column import PanelPlot
from benchlens.app.ui.readout import Curve, ReadoutBox, table_of
from benchlens.app.ui.session import Session


class OffsetViewBox(pg.ViewBox):  # type: ignore[misc]  # pyqtgraph is untyped: its classes are Any
    """Ctrl+drag shifts one run in time (the one chosen for offsets); Shift+drag marks a region
    for a note. A plain drag pans, as everywhere in pyqtgraph."""

    def __init__(
        self, on_shift: Callable[[float, bool], None], on_mark: Callable[[float, float, bool], None], **kw: object
    ) -> None:
        super().__init__(**kw)
        self.on_shift = on_shift
        self.on_mark = on_mark
        self.shows: Callable[[], bool] | None = None  # a follower's: whether its plot area is in view
        self.behind = False  # the time range it is x-linked to moved while its plot area was out of view

    def linkedViewChanged(self, view: Any, axis: int) -> None:
        """The view it is x-linked to moved: a panel whose plot area is in view follows at once, one
        scrolled off (or showing only its title row) notes it and follows when it comes back
        (`catch_up`), as its curves do."""
        if axis == pg.ViewBox.XAxis and view is not None and not self.linksBlocked:
            if self.shows is not None and not self.shows():
                self.behind = True
                return
            self.behind = False
        super().linkedViewChanged(view, axis)

    def catch_up(self) -> None:
        """The time range of the view it is x-linked to, if it missed it while out of view."""
        view = self.linkedView(pg.ViewBox.XAxis)
        if self.behind and view is not None:
            self.behind = False
            super().linkedViewChanged(view, pg.ViewBox.XAxis)

    def mapFromItemToView(self, item: Any, obj: Any) -> Any:
        """An item of the plot (a curve) mapped to the view's coordinates without first bringing
        the view's own transform up to date: an item's place in the plot does not depend on it.
        pyqtgraph updated it here, in the middle of fitting y to a pan's new points, so each pan
        moved every panel twice (the new x with the old y, then the new y)."""
        if item.parentItem() is self.childGroup:
            return self.childGroup.mapFromItem(item, obj)
        return super().mapFromItemToView(item, obj)

    def itemBoundsChanged(self, item: Any) -> None:
        """An item's bounds changed: y is fitted again before the next paint. Not for the view's
        own move (its child group's new transform, as pyqtgraph reports it): its items' bounds in
        the view's coordinates stay as they are, and fitting them again at the paint after each
        pan found the range it had just fitted."""
        if item is not self.childGroup:
            super().itemBoundsChanged(item)

    def mouseDragEvent(self, ev: Any, axis: object = None) -> None:  # a pyqtgraph MouseDragEvent (untyped)
        if ev.button() == Qt.MouseButton.LeftButton and ev.modifiers() & Qt.KeyboardModifier.ControlModifier:
            ev.accept()
            dx = self.mapToView(ev.pos()).x() - self.mapToView(ev.lastPos()).x()
            self.on_shift(float(dx), ev.isFinish())
            return
        if ev.button() == Qt.MouseButton.LeftButton and ev.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            ev.accept()
            x0 = self.mapToView(ev.buttonDownPos()).x()
            self.on_mark(float(x0), float(self.mapToView(ev.pos()).x()), ev.isFinish())
            return
        super().mouseDragEvent(ev, axis)


CHART_KEYS = (  # the keys the charts read themselves (Help > Keyboard shortcuts lists them)
    ("+ / −", "zoom in / out in time"),
    ("← / →", "pan in time"),
    ("0 or Home", "whole runs"),
    ("Mouse wheel / right drag", "zoom"),
    ("Drag", "pan"),
    ("Ctrl+drag", "slide the run chosen in Offset in time"),
    ("Shift+drag", "a stretch of time: what changed there, or a note on it"),
    ("Mouse back / forward button", "zoom history back / forward"),
    ("Right click on a panel", "the panel menu"),
    ("Click a series in a panel's legend", "hide / show it"),
    ("Click a run above the charts, then Delete", "remove the run from the comparison"),
)


class ChartInput(QWidget):
    """The mouse and keys on the chart column; the column itself is the subclass's."""

    session: Session
    slots: list[QWidget]
    readout: ReadoutBox
    legend: RunLegend
    nav: TimeNavigator
    shift_target: int | None
    on_note: Callable[[float, float], None] | None
    _marking: pg.LinearRegionItem | None
    _dragged: float
    _plots: dict[int, pg.PlotItem]
    _widgets: dict[int, PanelPlot]
    _lines: dict[int, pg.InfiniteLine]
    _heatmaps: dict[int, HeatmapPanel]
    _pending: dict[int, Any]
    _curves: list[Curve]

    def _build_late(self, i: int) -> None:
        raise NotImplementedError  # the column's (app/ui/charts.py)

    def complete(self) -> None:
        raise NotImplementedError

    # ---- marking a region for a note -----------------------------------------------------------
    def mark(self, x0: float, x1: float, finished: bool) -> None:
        if self._marking is None and self._plots:
            self._marking = pg.LinearRegionItem((x0, x1), movable=False, brush=pg.mkBrush(120, 120, 120, 60))
            self._plots[0].addItem(self._marking, ignoreBounds=True)
        if self._marking is not None:
            self._marking.setRegion((min(x0, x1), max(x0, x1)))
        if finished:
            if self._marking is not None and self._plots:
                self._plots[0].removeItem(self._marking)
            self._marking = None
            if abs(x1 - x0) > 0 and self.on_note is not None:
                self.on_note(min(x0, x1), max(x0, x1))

    # ---- dragging a run in time ---------------------------------------------------------------
    def shift_run(self, dx: float, finished: bool) -> None:
        """Move the chosen run's curves live; the offset is committed when the drag ends."""
        r = self.shift_target if self.shift_target in self.session.comparison.runs else None
        if r is None:
            return
        self._dragged += dx
        self.complete()  # every panel's curves move
        for plot in self._plots.values():
            for item in plot.items:
                if isinstance(item, pg.PlotCurveItem) and item.property("run") == r:
                    item.setPos(self._dragged, 0)
        if finished:
            total, self._dragged = self._dragged, 0.0
            c = self.session.comparison
            self.session.set_offset(r, c.offsets.get(r, 0.0) + total)

    # ---- crosshair ----------------------------------------------------------------------------
    def _moved(self, plot: pg.PlotItem, event: tuple[QPointF]) -> None:
        pos = event[0]
        i = next((k for k, p in self._plots.items() if p is plot), None)
        if i is not None and plot.vb.sceneBoundingRect().contains(pos):
            at = self._widgets[i].mapTo(self, self._widgets[i].mapFromScene(pos))
            if i in self._heatmaps:
                self._heatmaps[i].hover(plot.vb.mapSceneToView(pos))
            self.show_at(float(plot.vb.mapSceneToView(pos).x()), i, at)

    def show_at(self, x: float, panel: int = 0, at: QPoint | None = None) -> None:
        """The crosshair at x on every panel; the readout box for `panel` beside `at`."""
        s, c = self.session, self.session.comparison
        if panel in self._pending:
            self._build_late(panel)
        for line in self._lines.values():
            line.setPos(x)
            line.show()
        if not (0 <= panel < len(c.panels)) or panel >= len(self.slots):
            return
        known = {run.id for run in s.runs()}
        runs = [(r, s.run(r).name, s.color(r)) for r in c.runs if r in known]
        self.readout.show_table(
            (panel, id(self._curves)), table_of(self._curves, panel, c.panels[panel], runs), c.align == "absolute"
        )
        self.readout.show_values(
            x,
            c.align == "absolute",
            at if at is not None else self.slots[panel].mapTo(self, self.slots[panel].rect().center()),
        )

    # ---- where in time: the navigator (app/ui/navigation.py) ----------------------------------
    def visible_range(self) -> tuple[float, float] | None:
        return self.nav.visible_range()

    def zoom_to(self, x0: float, x1: float) -> None:
        self.nav.zoom_to(x0, x1)

    def back(self) -> bool:
        return self.nav.back()

    def forward(self) -> bool:
        return self.nav.forward()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.legend.remove_chosen():
            return
        if not self.nav.key(event):
            super().keyPressEvent(event)

    # ---- events on the panels: drops (runs onto the area, metrics onto a panel), mouse back/forward
    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            md = event.mimeData()  # type: ignore[attr-defined]
            if md.hasFormat(mime.RUNS) or md.hasFormat(mime.SERIES):
                event.acceptProposedAction()  # type: ignore[attr-defined]
                return True
        if event.type() == QEvent.Type.Drop:
            self.drop(event, self.panel_of(obj))  # type: ignore[arg-type]
            return True
        if event.type() == QEvent.Type.Leave:  # the mouse left a panel: its readout goes
            self.readout.hide()
        if event.type() == QEvent.Type.MouseButtonPress:
            button = event.button()  # type: ignore[attr-defined]
            if button == Qt.MouseButton.BackButton:
                self.back()
                return True
            if button == Qt.MouseButton.ForwardButton:
                self.forward()
                return True
        return super().eventFilter(obj, event)

    def panel_of(self, viewport: QObject) -> int | None:
        """The panel whose viewport this is (None: the column around the panels)."""
        return next((i for i, w in self._widgets.items() if w.viewport() is viewport), None)

    def drop(self, event: QDropEvent | QDragEnterEvent, panel: int | None) -> None:
        md = event.mimeData()
        runs = mime.read_runs(md)
        if runs:
            self.session.add_runs(runs)
        refs = mime.read_series(md)
        if refs:
            self.session.add_series(refs, panel)
        event.acceptProposedAction()
