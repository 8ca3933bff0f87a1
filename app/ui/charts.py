"""The comparison area: stacked panels on one linked time axis, one colour per run, one line
style per metric, peak-preserving downsampling, a crosshair readout of every series."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QColor, QDragEnterEvent, QDropEvent, QKeyEvent
from PySide6.QtWidgets import QGraphicsItem, QLabel, QVBoxLayout, QWidget

from benchlens.app.analysis.align import ALIGN_MODES
from benchlens.app.analysis.decimate import MinMaxPyramid
from benchlens.app.model import SeriesRef
from benchlens.app.ui import mime
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


STYLES = [Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine]


class ComparisonView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.graphics = pg.GraphicsLayoutWidget()
        self.graphics.setBackground("w")
        self.graphics.setAcceptDrops(True)
        self.graphics.viewport().setAcceptDrops(True)
        self.graphics.viewport().installEventFilter(self)
        self.readout = QLabel()
        self.readout.setTextFormat(Qt.TextFormat.RichText)
        self.readout.setWordWrap(True)
        self.readout.setMinimumHeight(36)
        self.legend = QLabel()
        self.legend.setTextFormat(Qt.TextFormat.RichText)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.legend)
        lay.addWidget(self.graphics, 1)
        lay.addWidget(self.readout)
        self.shift_target: int | None = None  # the run Ctrl+drag moves (the toolbar's Offset choice)
        self.on_note: Callable[[float, float], None] | None = None  # Shift+drag across x0..x1
        self._marking: pg.LinearRegionItem | None = None
        self._dragged = 0.0
        self.plots: list[pg.PlotItem] = []
        self.drop_labels: list[pg.TextItem] = []
        self.decimated: list[tuple[pg.PlotDataItem, MinMaxPyramid]] = []
        self.lines: list[pg.InfiniteLine] = []
        self.curves: list[tuple[int, int, SeriesRef, np.ndarray, np.ndarray, float]] = []  # panel run ref x y step
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._proxy = pg.SignalProxy(self.graphics.scene().sigMouseMoved, rateLimit=30, slot=self._moved)
        session.comparisonChanged.connect(self.rebuild)
        session.runsChanged.connect(self.rebuild)
        self.rebuild()

    # ---- drawing ------------------------------------------------------------------------------
    def rebuild(self) -> None:
        s, c = self.session, self.session.comparison
        self.graphics.clear()
        self.plots, self.lines, self.curves, self.drop_labels, self.decimated = [], [], [], [], []
        runs = [r for r in c.runs if r in {x.id for x in s.runs()}]
        self.legend.setText(
            "  ".join(f'<span style="color:{s.color(r)}; font-size:14px">■</span> <b>{s.run(r).name}</b>' for r in runs)
            or "<i>Drag runs from the library here to compare them; drag metrics onto a panel.</i>"
        )
        if not runs or not c.panels:
            self.readout.setText("")
            return
        first: pg.PlotItem | None = None
        absolute = c.align == "absolute"
        for i, panel in enumerate(c.panels):
            axis = {"bottom": pg.DateAxisItem(utcOffset=0)} if absolute else {}
            plot = self.graphics.addPlot(row=i, col=0, axisItems=axis, viewBox=OffsetViewBox(self.shift_run, self.mark))
            plot.showGrid(x=True, y=True, alpha=0.25)
            plot.setTitle(panel.title, size="10pt")
            units = {s.unit(r, ref) for r in runs for ref in panel.refs} - {""}
            plot.getAxis("left").enableAutoSIPrefix(False)  # '%' or 'ms' must not become 'ms (x0.001)'
            # Panning in time leaves value axes and titles unchanged: Qt re-blits them from a pixmap.
            plot.getAxis("left").setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            plot.titleLabel.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
            if len(units) == 1:
                plot.setLabel("left", text=units.pop())
            if len(panel.refs) > 1:  # line styles name the metrics; colours name the runs (top bar)
                legend = plot.addLegend(offset=(-10, 5), labelTextSize="8pt")
                legend.setBrush(pg.mkBrush(255, 255, 255, 200))
                for j, text in enumerate(panel.legend()):
                    sample = pg.PlotDataItem(pen=pg.mkPen("#444444", width=1, style=STYLES[j % len(STYLES)]))
                    legend.addItem(sample, text)
            for j, ref in enumerate(panel.refs):
                for r in runs:
                    d = s.data(r, ref)
                    if d is None or not len(d[0]):
                        continue
                    x = s.x_of(r, d[0])
                    pen = pg.mkPen(s.color(r), width=1, style=STYLES[j % len(STYLES)])
                    # min/max pyramid: ~2 points per pixel column at any zoom, a 1 s stall kept
                    pyramid = MinMaxPyramid(x, d[1])
                    xs, ys = pyramid.view(float(x[0]), float(x[-1]), 2000)
                    item = plot.plot(xs, ys, pen=pen, connect="finite")
                    item.setProperty("run", r)
                    self.decimated.append((item, pyramid))
                    step = float(np.median(np.diff(x[:200]))) if len(x) > 1 else 1.0
                    self.curves.append((i, r, ref, x, d[1], step))
            if first is None:
                first = plot
            else:
                plot.setXLink(first)
            if i < len(c.panels) - 1:
                plot.hideAxis("bottom")  # one time axis, under the last panel (and half the axes to draw)
            line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen("#888888", width=1))
            plot.addItem(line, ignoreBounds=True)
            self.lines.append(line)
            self.plots.append(plot)
        self._draw_drops(runs)
        last = self.plots[-1]
        last.setLabel("bottom", "time (UTC)" if absolute else f"seconds, {ALIGN_MODES[c.align]}")
        if first is not None:
            first.vb.sigXRangeChanged.connect(self._redecimate)
        if c.x_range and first is not None:
            first.setXRange(*c.x_range, padding=0)
        self.readout.setText("<i>Move the mouse over the charts to read every run at the cursor.</i>")

    def _redecimate(self, vb: pg.ViewBox, x_range: tuple[float, float]) -> None:
        """New x range: each curve gets its points for that view from its pyramid."""
        pixels = max(int(vb.width()), 200)
        for item, pyramid in self.decimated:
            shift = item.pos().x()  # a run being dragged is drawn shifted
            xs, ys = pyramid.view(x_range[0] - shift, x_range[1] - shift, pixels)
            item.setData(xs, ys, connect="finite")

    def _draw_drops(self, runs: list[int]) -> None:
        """Each detected drop: a shaded band on every panel, labelled on the top one."""
        s = self.session
        tops = [float(np.nanmax(c[4])) for c in self.curves if c[0] == 0 and len(c[4])]
        top = max(tops) if tops else 1.0
        for r in runs:
            color = QColor(s.color(r))
            for note in s.notes(r):
                x0, x1 = (float(x) for x in s.x_of(r, np.array([note.start, note.end])))
                self._band(x0, x1, QColor(120, 120, 120, 45), note.label, QColor("#555555"), top, r)
            for rd in s.drops(r):
                label, state = s.drop_label(r, rd.drop)
                if state == "dismissed":
                    continue
                x0, x1 = (float(x) for x in s.x_of(r, np.array([rd.drop.start, rd.drop.end])))
                fill = QColor(color)
                fill.setAlpha(40)
                self._band(x0, x1, fill, ("\u2713 " if state == "accepted" else "") + label, color, top, r)

    def _band(self, x0: float, x1: float, fill: QColor, text: str, color: QColor, top: float, run: int) -> None:
        for k, plot in enumerate(self.plots):
            band = pg.LinearRegionItem((x0, x1), movable=False, brush=fill, pen=pg.mkPen(None))
            band.setZValue(-10)
            band.setProperty("run", run)
            plot.addItem(band, ignoreBounds=True)
            if k == 0 and text:
                label = pg.TextItem(text, color=color, anchor=(0, 0))
                plot.addItem(label, ignoreBounds=True)
                label.setPos(x0, top * (1 - 0.18 * (len(self.drop_labels) % 3)))  # staggered: bands can overlap
                self.drop_labels.append(label)

    # ---- marking a region for a note -----------------------------------------------------------
    def mark(self, x0: float, x1: float, finished: bool) -> None:
        if self._marking is None and self.plots:
            self._marking = pg.LinearRegionItem((x0, x1), movable=False, brush=pg.mkBrush(120, 120, 120, 60))
            self.plots[0].addItem(self._marking, ignoreBounds=True)
        if self._marking is not None:
            self._marking.setRegion((min(x0, x1), max(x0, x1)))
        if finished:
            if self._marking is not None and self.plots:
                self.plots[0].removeItem(self._marking)
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
        for plot in self.plots:
            for item in plot.listDataItems():
                if item.property("run") == r:
                    item.setPos(self._dragged, 0)
        if finished:
            total, self._dragged = self._dragged, 0.0
            c = self.session.comparison
            self.session.set_offset(r, c.offsets.get(r, 0.0) + total)

    # ---- crosshair ----------------------------------------------------------------------------
    def _moved(self, event: tuple[QPointF]) -> None:
        pos = event[0]
        for plot in self.plots:
            if plot.sceneBoundingRect().contains(pos):
                self.show_at(float(plot.vb.mapSceneToView(pos).x()))
                return

    def show_at(self, x: float) -> None:
        for line in self.lines:
            line.setPos(x)
        s = self.session
        parts = []
        for i, panel in enumerate(s.comparison.panels):
            cells = []
            for p, r, ref, xs, ys, step in self.curves:
                if p != i:
                    continue
                k = int(np.searchsorted(xs, x, side="right")) - 1
                if 0 <= k < len(xs) and x - xs[k] <= 1.5 * step:  # the sample in force at the cursor
                    cells.append(f'<span style="color:{s.color(r)}">{ref.label()} {ys[k]:.4g}</span>')
            if cells:
                parts.append(f"<b>{panel.title}</b>: " + ", ".join(cells))
        self.readout.setText(" &nbsp;|&nbsp; ".join(parts) or "")

    def visible_range(self) -> tuple[float, float] | None:
        """The x range the charts show; None while they fit whole runs (never zoomed, or `0`): the
        view box may not have fitted them yet, and whole runs are what it will show. Mouse zooms
        and pans move the view without telling the session: export and summary read it here."""
        if not self.plots:
            return None
        vb = self.plots[0].vb
        if vb.autoRangeEnabled()[0]:
            return None
        x0, x1 = vb.viewRange()[0]
        return float(x0), float(x1)

    def zoom_to(self, x0: float, x1: float) -> None:
        if self.plots:
            self.plots[0].setXRange(x0, x1, padding=0)
            self.session.comparison.x_range = (x0, x1)

    # ---- keyboard zoom and pan ----------------------------------------------------------------
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.plots:
            return super().keyPressEvent(event)
        vb = self.plots[0].vb
        (x0, x1), _ = vb.viewRange()
        w = x1 - x0
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            vb.setXRange(x0 + w / 4, x1 - w / 4, padding=0)
        elif key == Qt.Key.Key_Minus:
            vb.setXRange(x0 - w / 2, x1 + w / 2, padding=0)
        elif key == Qt.Key.Key_Left:
            vb.setXRange(x0 - w / 5, x1 - w / 5, padding=0)
        elif key == Qt.Key.Key_Right:
            vb.setXRange(x0 + w / 5, x1 + w / 5, padding=0)
        elif key in (Qt.Key.Key_0, Qt.Key.Key_Home):
            for p in self.plots:
                p.enableAutoRange()
        else:
            return super().keyPressEvent(event)
        self.session.comparison.x_range = tuple(vb.viewRange()[0])  # type: ignore[assignment]

    # ---- drops: runs onto the area, metrics onto a panel ---------------------------------------
    def panel_at(self, view_pos: QPointF) -> int | None:
        scene = self.graphics.mapToScene(view_pos.toPoint())
        for i, plot in enumerate(self.plots):
            if plot.sceneBoundingRect().contains(scene):
                return i
        return None

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            md = event.mimeData()  # type: ignore[attr-defined]
            if md.hasFormat(mime.RUNS) or md.hasFormat(mime.SERIES):
                event.acceptProposedAction()  # type: ignore[attr-defined]
                return True
        if event.type() == QEvent.Type.Drop:
            self.drop(event)  # type: ignore[arg-type]
            return True
        return super().eventFilter(obj, event)

    def drop(self, event: QDropEvent | QDragEnterEvent) -> None:
        md = event.mimeData()
        runs = mime.read_runs(md)
        if runs:
            self.session.add_runs(runs)
        refs = mime.read_series(md)
        if refs:
            self.session.add_series(refs, self.panel_at(event.position()))
        event.acceptProposedAction()
