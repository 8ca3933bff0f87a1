"""The comparison area: stacked panels on one linked time axis, one colour per run, one line
style per metric, peak-preserving downsampling, a crosshair readout of every series."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pyqtgraph as pg
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QGraphicsItem,
    QHBoxLayout,
    QMenu,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.analysis.align import ALIGN_MODES
from benchlens.app.analysis.layout import Panel
from benchlens.app.figure import Reference, StepMark, references, step_marks
from benchlens.app.ticks import heading
from benchlens.app.ui.axes import TimeAxis, ValueAxis, unlink_hidden
from benchlens.app.ui.chart_input import OffsetViewBox
from benchlens.app.ui.curves import Decimated, add_curves, process_tip, run_gap
from benchlens.app.ui.heatmap import HeatmapPanel, add_heatmap, as_lines
from benchlens.app.ui.lazy_column import BUILD_MS, Placeholder, data_in_view, deferrable, extent, in_view
from benchlens.app.ui.legends import RunLegend, fit_title, series_clicked
from benchlens.app.ui.marks import LabelLane, MarkLabels, Shades, add_references, add_step_marks, draw_findings
from benchlens.app.ui.navigation import TimeNavigator, fit_whole
from benchlens.app.ui.panel_column import MIN_PANEL_PX, PanelBorder, PanelPlot, TimeAxisStrip
from benchlens.app.ui.panel_lists import PanelLists
from benchlens.app.ui.panel_menu import apply_scale, panel_menu
from benchlens.app.ui.readout import Curve, ReadoutBox
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import ChartTheme, chart_theme


class ComparisonView(PanelLists):
    """The legend of runs, the column of panels (scrolling when they do not fit), the time axis
    under it, and the crosshair readout."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.column = QWidget()
        self.column.setAcceptDrops(True)
        self.column_layout = QVBoxLayout(self.column)
        self.column_layout.setContentsMargins(0, 0, 0, 0)
        self.column_layout.setSpacing(0)
        self.column_scroll = QScrollArea()
        self.column_scroll.setWidgetResizable(True)
        self.column_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.column_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.column_scroll.setWidget(self.column)
        self.column_scroll.viewport().setAcceptDrops(True)
        self.column_scroll.viewport().installEventFilter(self)
        bar = self.column_scroll.verticalScrollBar()
        bar.rangeChanged.connect(self._align_axis_strip)
        # the column's height changed (a panel or the label lane above them grew or shrank): the
        # panels that moved into view catch up, once the layout is done
        bar.rangeChanged.connect(lambda *_: QTimer.singleShot(0, self, self._catch_up))
        bar.valueChanged.connect(self._catch_up)
        self.axis_strip: TimeAxisStrip | None = None
        self._strip_theme: ChartTheme | None = None
        self.readout = ReadoutBox(self)  # over the charts beside the cursor, not in the layout
        self.legend = RunLegend(session)
        self.axis_box = QWidget()  # holds the strip, its right margin the scroll bar's width
        self.axis_holder = QHBoxLayout(self.axis_box)
        self.axis_holder.setContentsMargins(0, 0, 0, 0)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.legend)
        lay.addWidget(self.column_scroll, 1)
        lay.addWidget(self.axis_box)
        self.shift_target: int | None = None  # the run Ctrl+drag moves (the toolbar's Offset choice)
        self.on_note: Callable[[float, float], None] | None = None  # Shift+drag across x0..x1
        self.menu: QMenu | None = None  # the panel menu last opened
        self._marking: pg.LinearRegionItem | None = None
        self._dragged = 0.0
        # Per panel, by index: those built so far (the first paint builds the panels in view, the
        # others follow when scrolled to or once the event loop is free: app/ui/lazy_column.py).
        # The public lists (plots, widgets, curves ...) build every panel first.
        self.slots: list[QWidget] = []  # what the column holds for each panel: its widget or a placeholder
        self.borders: list[PanelBorder] = []
        self._widgets: dict[int, PanelPlot] = {}
        self._plots: dict[int, pg.PlotItem] = {}
        self._lines: dict[int, pg.InfiniteLine] = {}
        self._pending: dict[int, Panel] = {}  # panels not built yet
        self._runs: list[int] = []
        self._extents: dict[int, tuple[float, float] | None] = {}  # of the panels not built yet
        self._marks: tuple[list[StepMark], list[Reference], dict[int, str]] = ([], [], {})
        self.shades: Shades | None = None
        self._later = QTimer(self)  # builds the panels below the fold once the first paint is done
        self._later.setSingleShot(True)
        self._later.setInterval(BUILD_MS)
        self._later.timeout.connect(self._build_next)
        self.mark_labels: MarkLabels | None = None
        self.theme: ChartTheme = chart_theme(self.palette())
        self._decimated = Decimated()  # every curve with its panel and pyramid
        self._curves: list[Curve] = []  # every series drawn, as the readout reads it
        self._heatmaps: dict[int, HeatmapPanel] = {}  # panel index -> its heatmap (issue #25)
        self._proxies: list[pg.SignalProxy] = []
        self.nav = TimeNavigator(session, self.built_plots, self)
        self.nav.settle.timeout.connect(self._rebin_heatmaps)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        session.comparisonChanged.connect(self.rebuild)
        session.runsChanged.connect(self.rebuild)
        self._strip()  # with the window (hidden until there are panels), not with the first comparison
        self.rebuild()

    # ---- drawing ------------------------------------------------------------------------------
    def _clear(self) -> None:
        self._later.stop()
        old: list[QWidget] = [*self.slots, *self.borders]
        for w in old:
            self.column_layout.removeWidget(w)
            w.hide()  # now: deleteLater waits for the event loop, and it would be painted until then
            w.deleteLater()
        if self.mark_labels is not None:  # the label lane above the panels
            self.column_layout.removeWidget(self.mark_labels.lane)
            self.mark_labels.lane.hide()
            self.mark_labels.lane.deleteLater()
        self.slots, self.borders, self._proxies = [], [], []
        self._widgets, self._plots, self._lines, self._pending, self._extents = {}, {}, {}, {}, {}
        self._curves, self._heatmaps = [], {}
        self._decimated = Decimated()
        self.mark_labels, self.shades = None, None

    def rebuild(self) -> None:
        s, c = self.session, self.session.comparison
        self.theme = chart_theme(self.palette())
        self._clear()
        runs = [r for r in c.runs if r in {x.id for x in s.runs()}]
        self.legend.show_runs(runs)
        self.nav.showing((c.align, c.side_by_side, tuple(runs)))
        self.readout.reset()
        if not runs or not c.panels:
            if self.axis_strip is not None:
                self.axis_strip.hide()
            return
        absolute = c.align == "absolute"
        self._runs = runs
        # Built with updates off, shown and laid out at once: else each new panel appears from the
        # event loop, resizes the others and every resize repaints them (46 paints instead of 9 or so).
        # Every panel but the top one (it leads the others' time axis) starts as a placeholder: those
        # in view are built once the column is laid out, the others later (`_build_next`).
        self.column.setUpdatesEnabled(False)
        for i, panel in enumerate(c.panels):
            self._add_slot(i, panel)
        self._build(0)
        self._lay_out()
        for i in [i for i, p in self._pending.items() if in_view(self.slots[i]) or not deferrable(p)]:
            self._build(i)
        self._lay_out()  # x links line the panels up by their place on screen: laid out first
        first = self._plots[0]
        for plot in self.built_plots()[1:]:
            plot.setXLink(first)
        self._extents = {i: extent(s, p, runs) for i, p in self._pending.items()}
        self.nav.whole = self._whole()
        fit_whole(self.built_plots(), self.nav.whole)
        strip = self._strip()
        time_axis = strip.getAxis("bottom")
        time_axis.absolute, time_axis.relative_to, time_axis.scale_now = absolute, ALIGN_MODES[c.align], None
        time_axis.picture = None  # drawn anew for this alignment
        strip.setXLink(first)
        strip.setLabel("bottom", "time (UTC)" if absolute else f"seconds, {ALIGN_MODES[c.align]}")
        strip.show()
        self._align_axis_strip()
        self._draw_drops(runs)
        marks = step_marks(s.rundata, [s.run(r) for r in runs], c.align, c.offsets, c.side_by_side)
        colors = {r: s.color(r) for r in runs}
        self._marks = (marks, references(s.rundata, [s.run(r) for r in runs], c.panels), colors)
        add_step_marks(dict(self._plots), marks, colors, self.theme.veil)
        add_references(dict(self._plots), self._marks[1], colors)
        if c.x_range:
            first.setXRange(*c.x_range, padding=0)
        self.column.setUpdatesEnabled(True)
        first.vb.sigXRangeChanged.connect(self._redecimate)
        first.vb.sigXRangeChanged.connect(lambda *_: self.nav.settle.start())
        if self._pending:
            self._later.start()

    def _add_slot(self, i: int, panel: Panel) -> None:
        """Panel i's place in the column, a placeholder of its height until it is built, and the
        border under it."""
        slot = Placeholder(i, panel)
        self.slots.append(slot)
        self._pending[i] = panel
        border = PanelBorder(i, self.resize_panel, lambda k: self.slots[k].height())
        self.borders.append(border)
        self.column_layout.addWidget(slot, 1)
        self.column_layout.addWidget(border)
        slot.show()  # now, not one by one from the event loop (each would resize and repaint the others)
        border.show()

    def _lay_out(self) -> None:
        """The column laid out now, and the panels' plots in it (the layout requests that the first
        pass posts: a plot's own layout follows its view's new size)."""
        self.column_layout.activate()
        for _ in range(2):
            QApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)

    def _build(self, i: int) -> None:
        """Panel i, in its placeholder's place (not linked to the others yet: `rebuild`, `_build_late`)."""
        panel = self._pending.pop(i)
        self._extents.pop(i, None)
        widget = self._add_panel(i, panel, self._runs)
        placeholder = self.slots[i]
        self.column_layout.insertWidget(self.column_layout.indexOf(placeholder), widget, 1)
        self.column_layout.removeWidget(placeholder)
        placeholder.hide()
        placeholder.deleteLater()
        self.slots[i] = widget
        widget.show()
        self._curves.sort(key=lambda c: c.panel)  # in panel order, whichever was built first
        self._decimated.entries.sort(key=lambda e: e[0])

    def _build_late(self, i: int) -> None:
        """Panel i after the others: laid out, then x-linked to the top one with the marks every
        panel has, and its points for the view when it is in view."""
        first = self._plots[0].vb
        x_range = first.viewRange()[0]
        first.blockLink(True)  # the new panel follows the others' time range, it does not move them
        try:
            self._build(i)
            self._lay_out()
            widget, plot = self._widgets[i], self._plots[i]
            plot.setXLink(self._plots[0])
            plot.vb.setXRange(*x_range, padding=0)
        finally:
            first.blockLink(False)
        plot.enableAutoRange(axis=pg.ViewBox.YAxis)
        if self.shades is not None:
            self.shades.add(plot)
        marks, refs, colors = self._marks
        add_step_marks({i: plot}, marks, colors, self.theme.veil)
        add_references({i: plot}, refs, colors)
        vb = self._plots[0].vb
        if not self._decimated.moved:  # whole runs as first drawn, like the panels built at first
            return
        if data_in_view(widget):
            self._decimated.redraw([i], vb.viewRange()[0], max(int(vb.width()), 200))
        else:
            self._decimated.stale.add(i)

    def _build_next(self) -> None:
        """The event loop is free: the next panel below the fold is built (one per pass, the
        window stays responsive)."""
        if self.session.closed:  # the window closed meanwhile: nothing to build from
            return
        if self._pending:
            self._build_late(min(self._pending))
        if self._pending:
            self._later.start()

    def _whole(self) -> tuple[float, float] | None:
        """Whole runs: every run's extent, of the curves drawn and the panels still to build."""
        spans = [(float(c.x[0]), float(c.x[-1])) for c in self._curves]
        spans += [e for e in self._extents.values() if e is not None]
        return (min(a for a, _ in spans), max(b for _, b in spans)) if spans else None

    def _add_panel(self, i: int, panel: Panel, runs: list[int]) -> PanelPlot:
        s = self.session
        units = {s.unit(r, ref) for r in runs for ref in panel.refs} - {""}
        unit = units.pop() if len(units) == 1 else ""
        widget = PanelPlot(
            i,
            self.open_menu,
            partial(series_clicked, s),
            self.theme,
            axisItems={"left": ValueAxis(unit)},
            viewBox=OffsetViewBox(self.shift_run, self.mark, enableMenu=False),
        )
        if i > 0:  # x-linked to the top one: out of view, it follows when scrolled to (`_catch_up`)
            widget.getPlotItem().vb.shows = partial(data_in_view, widget)
        if panel.height:
            widget.setMinimumHeight(max(MIN_PANEL_PX, panel.height))
        widget.viewport().setAcceptDrops(True)
        widget.viewport().installEventFilter(self)
        plot = widget.getPlotItem()
        plot.showGrid(x=True, y=True, alpha=self.theme.grid_alpha)
        # The unit once, next to the title; the metrics' line styles beside it, above the plot
        # area (a legend inside it covered the curves), as the export draws its headings.
        title = heading(panel.title, unit, [r.metric for r in panel.refs]) + run_gap(s, panel, runs)
        fit_title(plot, title, panel, self.theme)
        plot.hideAxis("bottom")  # one time axis, in the strip under the column
        unlink_hidden(plot)
        # Panning in time leaves value axes and titles unchanged: Qt re-blits them from a pixmap.
        plot.getAxis("left").setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        plot.titleLabel.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        first_x = self._add_curves(i, plot, panel, runs)
        plot.titleLabel.setToolTip(process_tip(s, panel, runs))
        apply_scale(plot, panel, first_x)
        line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(self.theme.muted, width=1))
        line.hide()  # until the mouse is over the charts (else a line at x = 0)
        plot.addItem(line, ignoreBounds=True)
        self._lines[i] = line
        self._plots[i] = plot
        self._widgets[i] = widget
        self._proxies.append(
            pg.SignalProxy(widget.scene().sigMouseMoved, rateLimit=30, slot=partial(self._moved, plot))
        )
        return widget

    def _add_curves(self, i: int, plot: pg.PlotItem, panel: Panel, runs: list[int]) -> float | None:
        """The panel's curves (app/ui/curves.py), or its heatmap; returns the first x drawn."""
        heat = add_heatmap(self.session, plot, panel, runs)
        if heat is not None:
            self._heatmaps[i] = heat
            return float(heat.grid.edges[0])
        drawn = add_curves(self.session, i, plot, as_lines(self.session, panel, runs), runs)
        for d in drawn:
            self._decimated.add(i, d.item, d.pyramid, d.level)
            self._curves.append(d.curve)
        return float(drawn[0].curve.x[0]) if drawn else None

    def _strip(self) -> TimeAxisStrip:
        """The time axis strip, kept from one drawing to the next (a plot of its own: ~10 ms to
        make) and made anew for a new theme. Hidden while there is nothing to draw."""
        if self.axis_strip is not None and self._strip_theme == self.theme:
            return self.axis_strip
        if self.axis_strip is not None:
            self.axis_holder.removeWidget(self.axis_strip)
            self.axis_strip.hide()
            self.axis_strip.deleteLater()
        time_axis = TimeAxis(False, "")
        strip = self.axis_strip = TimeAxisStrip({"bottom": time_axis}, self.theme)
        self._strip_theme = self.theme
        # the words under the axis follow its scale (seconds, m:ss, h:mm, dates): set after the paint
        time_axis.on_scale = lambda scale: QTimer.singleShot(0, strip, partial(strip.setLabel, "bottom", scale.title))
        strip.hide()
        self.axis_holder.addWidget(strip)
        return strip

    def _align_axis_strip(self, *_: object) -> None:
        """The strip spans what the panels span: not under the column's scroll bar."""
        if self.axis_strip is not None:
            bar = self.column_scroll.verticalScrollBar()
            right = bar.sizeHint().width() if bar.maximum() > 0 else 0
            self.axis_holder.setContentsMargins(0, 0, right, 0)

    # ---- shaping panels -----------------------------------------------------------------------
    def resize_panel(self, index: int, height: int, finished: bool) -> None:
        """A border dragged: the panel above takes that height (the others keep theirs; the
        column scrolls); the height is saved with the view when the drag ends."""
        if not (0 <= index < len(self.slots)):
            return
        for k, w in enumerate(self.slots):  # the others stay as they are now, not stretched
            if k != index and w.minimumHeight() < w.height():
                w.setMinimumHeight(w.height())
        self.slots[index].setMinimumHeight(height)
        QTimer.singleShot(0, self, self._catch_up)
        if finished:
            self.session.set_panel_height(index, height)

    def open_menu(self, index: int, at: QPoint) -> None:
        """The panel menu, at a global position (right click on a panel); kept in `menu`."""
        self.menu = panel_menu(self.session, index, self)
        self.menu.popup(at)

    def _redecimate(self, vb: pg.ViewBox, x_range: tuple[float, float]) -> None:
        """New x range: each curve of a panel in view gets its points for that view from its
        pyramid; panels scrolled out of view get theirs when they come back (`_catch_up`)."""
        shown = {i for i, w in self._widgets.items() if data_in_view(w)}
        self._decimated.show_range(x_range, max(int(vb.width()), 200), shown, len(self.slots))
        for i in shown:  # fit y to the new points now: fitted while painting, it costs a second paint
            self._plots[i].vb.prepareForPaint()

    def _rebin_heatmaps(self) -> None:
        """A zoom or pan settled: each heatmap's bins for the time in view."""
        if self._heatmaps and self._plots:
            x0, x1 = self._plots[0].vb.viewRange()[0]
            for heat in self._heatmaps.values():
                heat.rebin(float(x0), float(x1))

    def changeEvent(self, event: QEvent) -> None:
        """The palette changed (the system went dark, or View ▸ Theme): the charts follow."""
        super().changeEvent(event)
        if self.session.closed:  # a closed window not deleted yet
            return
        if event.type() == QEvent.Type.PaletteChange and chart_theme(self.palette()) != self.theme:
            self.rebuild()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self, self._catch_up)  # after the column's layout: more panels may be in view

    def _catch_up(self, *_: object) -> None:
        """The column scrolled: panels now in view are built if they were not yet, and those that
        missed a zoom or pan are redrawn."""
        for i in [i for i in self._pending if in_view(self.slots[i])]:
            self._build_late(i)
        for i, w in self._widgets.items():
            if data_in_view(w):
                self._plots[i].vb.catch_up()  # the time range it missed while out of view
        stale = self._decimated.stale
        if not stale or not self._plots:
            return
        vb = self._plots[0].vb
        back = {i for i in stale if i in self._widgets and data_in_view(self._widgets[i])}
        stale -= back
        self._decimated.redraw(back, vb.viewRange()[0], max(int(vb.width()), 200))
        for i in back:
            self._plots[i].vb.prepareForPaint()

    def _draw_drops(self, runs: list[int]) -> None:
        """Notes and what the throughput says, on every panel (app/ui/marks.py)."""
        self.mark_labels, self.shades = draw_findings(
            self.session, self.built_plots(), runs, self.theme, self._new_lane
        )

    def _new_lane(self) -> LabelLane:
        """The label lane, above the top panel (app/ui/marks.py)."""
        lane = LabelLane(self.theme)
        self.column_layout.insertWidget(0, lane)
        return lane

    @property
    def drop_labels(self) -> list[pg.TextItem]:
        """The labels of the drops and notes, in the lane above the top panel."""
        return self.mark_labels.items if self.mark_labels is not None else []
