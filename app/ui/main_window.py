"""The main window: runs library and metric browser on the left, the comparison in the middle."""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

from PySide6.QtCore import QByteArray, QEvent, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QActionGroup, QCursor, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QSplitter,
    QToolBar,
)

from benchlens.app.analysis.align import ALIGN_MODES
from benchlens.app.analysis.run_drops import RunDrop
from benchlens.app.errors import BenchlensError
from benchlens.app.ui import theme
from benchlens.app.ui.changed_view import WhatChangedView, add_changed_dock
from benchlens.app.ui.chart_input import CHART_KEYS
from benchlens.app.ui.charts import ComparisonView
from benchlens.app.ui.drops_view import DropsView
from benchlens.app.ui.export_dialog import ExportDialog, copy_csv, copy_image
from benchlens.app.ui.import_dialog import ImportDialog
from benchlens.app.ui.metrics_view import MetricsView
from benchlens.app.ui.panel_menu import add_more_panels
from benchlens.app.ui.report_action import report_from_window
from benchlens.app.ui.runs_view import RunsView
from benchlens.app.ui.session import Session
from benchlens.app.ui.shortcuts import ShortcutsDialog, menu_shortcuts
from benchlens.app.ui.summary_view import SummaryView, add_summary_dock
from benchlens.app.ui.trend_view import open_trend

LAST_VIEW = "(last)"
SUMMARY_KEY = "summary/visible"  # set only when the user opens or closes the Summary
THEME_KEY = "theme"  # system, light or dark (View > Theme)
SHORT_WINDOW_PX = 900  # below this the charts need the height more than the Summary does
GEOMETRY_KEY = "window/geometry"  # the window's size and place (saveGeometry), set when it closes
STATE_KEY = "window/state"  # its docks and toolbar (saveState)
SPLITTERS_KEY = "window/splitters"  # the left column's and the charts' splitter positions
DEFAULT_SIZE = (1400, 900)  # the first window on a screen that has room for it
SIDEBAR_PX, SIDEBAR_MAX_PX, SIDEBAR_SHARE = 330, 460, 0.22  # the runs, series and drops column: its width
PANELS_KEPT = 3  # a dock opened by a click (What changed) leaves this many panels in view
MIN_DOCK_PX = 120  # ... and is never shorter than this


class MainWindow(QMainWindow):
    def __init__(self, session: Session, settings: QSettings | None = None) -> None:
        settings = settings or QSettings("benchlens", "benchlens")
        if str(settings.value(THEME_KEY, "system")) != "system":  # before any widget takes its colours
            theme.use(str(settings.value(THEME_KEY)))
        super().__init__()
        self.session = session
        self.settings = settings
        self.setWindowTitle(f"benchlens — {session.db_path}")
        self.setAcceptDrops(True)
        self.runs = RunsView(session)
        self.metrics = MetricsView(session)
        self.chart = ComparisonView(session)
        self.drops = DropsView(session, self.chart.zoom_to, self.show_changed)
        self.chart.on_note = self.region_menu
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.runs)
        left.addWidget(self.metrics)
        left.addWidget(self.drops)
        main = QSplitter(Qt.Orientation.Horizontal)
        main.addWidget(left)
        main.addWidget(self.chart)
        main.setStretchFactor(1, 1)
        main.setSizes([SIDEBAR_PX, 1000])
        self.splitters = (left, main)
        self.setCentralWidget(main)
        self.summary = SummaryView(session, self.chart)
        self.summary_dock = add_summary_dock(self, self.summary)
        self.summary_dock.installEventFilter(self)
        self.changed = WhatChangedView(session)
        self.changed_dock = add_changed_dock(self, self.changed, self.summary_dock)
        self.changed_dock.hide()  # until a drop is clicked
        self._summary_placed = False
        self._restored = False  # opened at the size it was closed at (the settings had it)
        self._toolbar()
        self._menus()
        self.dialogs: list[ImportDialog] = []
        self.last_menu: QMenu | None = None
        self._fit_screen()
        self._restore_layout()

    # ---- where the window opens: within the screen, as it was left ------------------------------
    def _fit_screen(self) -> None:
        """The default size, no larger than the screen's available geometry (issue 24: 1400×900
        on a 1366×768 screen put the right and bottom edges off it)."""
        screen = self.screen().availableGeometry()
        self.resize(min(DEFAULT_SIZE[0], screen.width()), min(DEFAULT_SIZE[1], screen.height()))
        self.move(screen.topLeft())

    def small_screen(self) -> bool:
        screen = self.screen().availableGeometry()
        return screen.width() < DEFAULT_SIZE[0] or screen.height() < DEFAULT_SIZE[1]

    def _restore_layout(self) -> None:
        """The size, docks and splitters the window had when it was last closed (Qt keeps a
        restored window on a screen that is there now)."""
        geometry, state = self.settings.value(GEOMETRY_KEY), self.settings.value(STATE_KEY)
        if isinstance(geometry, QByteArray) and self.restoreGeometry(geometry):
            self._restored = True
        if isinstance(state, QByteArray):
            self.restoreState(state)
        splitters = self.settings.value(SPLITTERS_KEY)
        if isinstance(splitters, list) and len(splitters) == len(self.splitters):
            for splitter, saved in zip(self.splitters, splitters, strict=True):
                if isinstance(saved, QByteArray):
                    splitter.restoreState(saved)

    def _save_layout(self) -> None:
        self.settings.setValue(GEOMETRY_KEY, self.saveGeometry())
        self.settings.setValue(STATE_KEY, self.saveState())
        self.settings.setValue(SPLITTERS_KEY, [s.saveState() for s in self.splitters])
        self.settings.sync()

    def show_on_screen(self) -> None:
        """Show the window as a user opens it: as it was left, else maximised on a screen smaller
        than the default size, else at that size."""
        if not self._restored and self.small_screen():
            self.showMaximized()
        else:
            self.show()

    def _toolbar(self) -> None:
        bar = QToolBar("Comparison")
        bar.setObjectName("comparison")
        self.addToolBar(bar)
        bar.addWidget(QLabel(" Align: "))
        self.align = QComboBox()
        for key, text in ALIGN_MODES.items():
            self.align.addItem(text, key)
        self.align.currentIndexChanged.connect(lambda _: self.session.set_align(self.align.currentData()))
        bar.addWidget(self.align)
        self.side = QAction("Side by side", self, checkable=True)
        self.side.toggled.connect(self.session.set_side_by_side)
        bar.addAction(self.side)
        bar.addSeparator()
        offset_label = QLabel(" Offset ")
        offset_label.setToolTip("Type an offset, or Ctrl+drag in a chart to slide this run in time")
        bar.addWidget(offset_label)
        self.offset_run = QComboBox()
        self.offset = QDoubleSpinBox(suffix=" s", decimals=1, minimum=-1e6, maximum=1e6)
        self.offset_run.currentIndexChanged.connect(self._show_offset)
        self.offset.editingFinished.connect(self._set_offset)
        bar.addWidget(self.offset_run)
        bar.addWidget(self.offset)
        self.session.comparisonChanged.connect(self._sync_toolbar)
        self._sync_toolbar()

    def _sync_toolbar(self) -> None:
        c = self.session.comparison
        self.align.blockSignals(True)
        self.align.setCurrentIndex(list(ALIGN_MODES).index(c.align))
        self.align.blockSignals(False)
        self.side.blockSignals(True)
        self.side.setChecked(c.side_by_side)
        self.side.blockSignals(False)
        current = self.offset_run.currentData()
        self.offset_run.blockSignals(True)
        self.offset_run.clear()
        for r in c.runs:
            self.offset_run.addItem(self.session.run(r).name, r)
        idx = self.offset_run.findData(current)
        self.offset_run.setCurrentIndex(max(idx, 0))
        self.offset_run.blockSignals(False)
        self._show_offset()

    def _show_offset(self) -> None:
        r = self.offset_run.currentData()
        self.chart.shift_target = r
        self.offset.setValue(self.session.comparison.offsets.get(r, 0.0) if r is not None else 0.0)

    def _set_offset(self) -> None:
        r = self.offset_run.currentData()
        if r is not None and self.offset.value() != self.session.comparison.offsets.get(r, 0.0):
            self.session.set_offset(r, self.offset.value())

    def _menus(self) -> None:
        file = self.menuBar().addMenu("&File")
        file.addAction("Open run folder…", QKeySequence.StandardKey.Open, self.open_folder)
        self.recent = QMenu("Recent folders", self)
        file.addMenu(self.recent)
        self._fill_recent()
        file.addAction("Export…", QKeySequence("Ctrl+E"), self.export_figure)
        file.addAction("Report (HTML)…", partial(report_from_window, self, self.session, self.settings))
        file.addSeparator()
        file.addAction("Quit", QKeySequence.StandardKey.Quit, self.close)
        edit = self.menuBar().addMenu("&Edit")
        undo = self.session.undo_stack.createUndoAction(self, "Undo")
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = self.session.undo_stack.createRedoAction(self, "Redo")
        redo.setShortcut(QKeySequence.StandardKey.Redo)
        edit.addAction(undo)
        edit.addAction(redo)
        edit.addSeparator()
        edit.addAction("Copy chart image", QKeySequence("Ctrl+Shift+C"), self.copy_chart_image)
        edit.addAction("Copy data as CSV", self.copy_chart_csv)
        view = self.menuBar().addMenu("&View")
        # runs imported meanwhile by others (a shared server library) or by the CLI
        self.refresh_action = view.addAction("Refresh runs", QKeySequence("F5"), self.session.reload_runs)
        view.addAction("Save view…", self.save_view)
        self.views = QMenu("Open view", self)
        self.views.aboutToShow.connect(self._fill_views)
        view.addMenu(self.views)
        self.more = QMenu("More panels", self)
        self.more.aboutToShow.connect(lambda: add_more_panels(self.more, self.session))
        view.addMenu(self.more)
        view.addAction("Default layout", self.default_layout)
        view.addAction("Clear comparison", self.clear)
        view.addAction(self.summary_dock.toggleViewAction())
        view.addAction(self.changed_dock.toggleViewAction())
        view.addAction("B vs A, every series", QKeySequence("Ctrl+D"), self.compare_runs)
        view.addAction("Trend…", QKeySequence("Ctrl+T"), partial(open_trend, self))
        self._theme_menu(view.addMenu("Theme"))
        self.summary_dock.toggleViewAction().triggered.connect(self._remember_summary)
        view.addSeparator()
        self.back_action = view.addAction("Back (zoom)", QKeySequence("Alt+Left"), self.chart.back)
        self.forward_action = view.addAction("Forward (zoom)", QKeySequence("Alt+Right"), self.chart.forward)
        help_menu = self.menuBar().addMenu("&Help")
        help_menu.addAction("Keyboard shortcuts", QKeySequence("F1"), self.show_shortcuts)

    def _theme_menu(self, menu: QMenu) -> None:
        """System (follows the desktop's light or dark palette), Light or Dark; kept in the settings."""
        group = QActionGroup(self)
        chosen = str(self.settings.value(THEME_KEY, "system"))
        self.theme_actions: dict[str, QAction] = {}
        for mode in theme.MODES:
            action = menu.addAction(mode.capitalize(), partial(self.set_theme, mode))
            action.setCheckable(True)
            action.setChecked(mode == chosen)
            group.addAction(action)
            self.theme_actions[mode] = action

    def set_theme(self, mode: str) -> None:
        theme.use(mode)
        self.settings.setValue(THEME_KEY, mode)
        self.settings.sync()
        self.theme_actions[mode].setChecked(True)

    def show_shortcuts(self) -> ShortcutsDialog:
        """Help > Keyboard shortcuts: every menu shortcut of this window, and the charts' keys."""
        dialog = ShortcutsDialog(menu_shortcuts(self.menuBar()) + list(CHART_KEYS), self)
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    # ---- the Summary: collapsed on a short window unless the user opened it --------------------
    def showEvent(self, event: object) -> None:
        super().showEvent(event)  # type: ignore[arg-type]
        if not self._summary_placed:
            self._summary_placed = True
            stored = self.settings.value(SUMMARY_KEY)
            shown = str(stored).lower() == "true" if stored is not None else self.height() >= SHORT_WINDOW_PX
            self.summary_dock.setVisible(shown)
            if self.settings.value(SPLITTERS_KEY) is None:  # never arranged: a wide window shows the runs' dates
                left = min(max(SIDEBAR_PX, round(self.width() * SIDEBAR_SHARE)), SIDEBAR_MAX_PX)
                self.splitters[1].setSizes([left, self.width() - left])

    def show_changed(self, run_id: int, rd: RunDrop) -> None:
        """A drop clicked: what changed during it, in full, in the tab beside the Summary."""
        self.changed.show_drop(run_id, rd)
        self.show_changed_tab()

    def show_changed_tab(self) -> None:
        self.changed_dock.show()
        self.changed_dock.raise_()
        QTimer.singleShot(0, self, self._leave_panels)

    def _leave_panels(self) -> None:
        """The docks under the charts no taller than leaves PANELS_KEPT panels in view (issue 24:
        a click on a drop left two panels at 1366×768)."""
        chart, dock = self.chart, self.changed_dock
        lane = chart.mark_labels.lane if chart.mark_labels is not None else None
        needed = chart.height() - chart.column_scroll.viewport().height()
        needed += sum(w.minimumHeight() for w in chart.slots[:PANELS_KEPT])
        needed += sum(b.height() for b in chart.borders[:PANELS_KEPT])
        needed += lane.height() if lane is not None and lane.isVisible() else 0
        room = chart.height() + dock.height() - needed
        if dock.isVisible() and room < dock.height():
            self.resizeDocks([dock], [max(room, MIN_DOCK_PX)], Qt.Orientation.Vertical)

    def _remember_summary(self, shown: bool) -> None:
        self.settings.setValue(SUMMARY_KEY, bool(shown))

    def changeEvent(self, event: QEvent) -> None:
        """Back in the window: runs imported meanwhile (elsewhere too, on a server library) show
        up without F5, when there are any."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.ActivationChange and self.isActiveWindow():
            self.session.runs_changed_elsewhere()

    def eventFilter(self, obj: object, event: QEvent) -> bool:
        if obj is self.summary_dock and event.type() == QEvent.Type.Close:  # its own close button
            self._remember_summary(False)
        return super().eventFilter(obj, event)  # type: ignore[arg-type]

    def _fill_recent(self) -> None:
        self.recent.clear()
        for p in self.recent_folders():
            self.recent.addAction(p, partial(self.import_paths, [Path(p)]))

    def _fill_views(self) -> None:
        self.views.clear()
        for name in self.session.view_names():
            if name != LAST_VIEW:
                self.views.addAction(name, partial(self.session.open_view, name))

    def recent_folders(self) -> list[str]:
        value = self.settings.value("recent", [])
        return [str(v) for v in value] if isinstance(value, list) else ([str(value)] if value else [])

    def open_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Open run folder")
        if folder:
            self.import_paths([Path(folder)])

    def import_paths(self, paths: list[Path]) -> ImportDialog:
        recent = [str(p) for p in paths] + [p for p in self.recent_folders() if p not in map(str, paths)]
        self.settings.setValue("recent", recent[:10])
        self._fill_recent()
        dialog = ImportDialog(self.session.db_path, paths, self)
        dialog.imported.connect(self._imported)
        self.dialogs.append(dialog)
        dialog.show()
        dialog.start()
        return dialog

    def _imported(self, reports: list[object]) -> None:
        self.session.reload_runs()
        self.session.add_runs([r.id for r in reports])  # type: ignore[attr-defined]

    def region_menu(self, x0: float, x1: float) -> None:
        """Shift+drag across a chart: what changed there, or a note, for the run chosen in the
        Offset box."""
        menu = QMenu(self)
        menu.addAction("What changed here?", partial(self.explain_region, x0, x1))
        menu.addAction("Add a note…", partial(self.add_note, x0, x1))
        menu.popup(QCursor.pos())
        self.last_menu = menu  # kept (and read by the tests)

    def explain_region(self, x0: float, x1: float) -> None:
        run = self.offset_run.currentData()
        if run is not None:
            self.changed.show_window(run, x0, x1)
            self.show_changed_tab()

    def compare_runs(self) -> None:
        """View > B vs A, every series: the comparison's second run against its first."""
        runs = self.session.comparison.runs
        if len(runs) < 2:
            self.statusBar().showMessage("Compare two runs first: drag a second run onto the charts", 5000)
            return
        self.changed.show_diff(runs[0], runs[1])
        self.show_changed_tab()

    def add_note(self, x0: float, x1: float) -> None:
        """A note on the run chosen in the Offset box, across x0..x1."""
        run = self.offset_run.currentData()
        if run is None:
            return
        name = self.session.run(run).name
        text, ok = QInputDialog.getText(self, "Note", f"Note on {name} ({x1 - x0:.0f} s):")
        if ok and text.strip():
            self.session.add_note(run, self.session.t_of(run, x0), self.session.t_of(run, x1), text.strip())

    def export_figure(self) -> ExportDialog | None:
        """File > Export…: the figure as shown, written as `benchlens export` would write it."""
        try:
            dialog = ExportDialog(self.session, self.chart, self.settings, self)
        except BenchlensError as e:
            self.statusBar().showMessage(f"Nothing to export: {e}", 5000)
            return None
        dialog.finished.connect(dialog.deleteLater)
        dialog.open()
        return dialog

    def copy_chart_image(self) -> None:
        try:
            image = copy_image(self.session, self.chart, self.settings)
        except BenchlensError as e:
            self.statusBar().showMessage(f"Nothing to copy: {e}", 5000)
            return
        self.statusBar().showMessage(f"Chart copied ({image.width()} × {image.height()} pixels)", 5000)

    def copy_chart_csv(self) -> None:
        try:
            text = copy_csv(self.session, self.chart)
        except BenchlensError as e:
            self.statusBar().showMessage(f"Nothing to copy: {e}", 5000)
            return
        self.statusBar().showMessage(f"Data copied ({len(text.splitlines()) - 1} rows of CSV)", 5000)

    def save_view(self) -> None:
        name, ok = QInputDialog.getText(self, "Save view", "Name:")
        if ok and name.strip():
            self.session.save_view(name.strip())

    def default_layout(self) -> None:
        self.session.comparison.layout_is_default = True
        self.session.comparison.panels = self.session.default_layout()
        self.session.comparisonChanged.emit()

    def clear(self) -> None:
        self.session.comparison.runs.clear()
        self.session.comparisonChanged.emit()

    # folders dropped from the file manager
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and all(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths:
            self.import_paths(paths)
            event.acceptProposedAction()

    def closeEvent(self, event: object) -> None:
        if self.session.closed:  # closed twice: the library is already gone
            super().closeEvent(event)  # type: ignore[arg-type]
            return
        self._save_layout()
        self.session.comparison.x_range = None
        try:
            self.session.save_view(LAST_VIEW)  # the window reopens on it
        except BenchlensError as e:  # closing must still work
            print(f"benchlens: last view not saved: {e}", file=sys.stderr)
        super().closeEvent(event)  # type: ignore[arg-type]
