"""The Summary panel: statistics of the compared runs over the window the charts show (it follows
zooms and pans, debounced), B vs A, the top waits side by side, and for step loads the TPS per
step with a TPS-vs-concurrency chart. Copy buttons and each table's context menu put the tables
on the clipboard as text, Markdown or CSV (app/analysis/summary.py and tables.py make them)."""

from __future__ import annotations

import contextlib
import math
from functools import partial
from typing import Any

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMenu,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.analysis.summary import WAITS, Summary, Window, summarize
from benchlens.app.analysis.tables import Table, fmt, to_csv, to_markdown, to_text
from benchlens.app.model import SeriesRef
from benchlens.app.palette import readable
from benchlens.app.ticks import row_unit
from benchlens.app.ui.charts import ComparisonView
from benchlens.app.ui.session import Session
from benchlens.app.ui.steps_view import StepsView

DEBOUNCE_MS = 250  # a wheel zoom fires many range changes: summarise once it settles
COPY = {"text": to_text, "Markdown": to_markdown, "CSV": to_csv}


class SummaryView(QWidget):
    def __init__(self, session: Session, chart: ComparisonView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.chart = chart
        self.data = session.rundata
        self.summary: Summary | None = None
        self.tables: dict[QTableWidget, Table] = {}
        self._watched: Any = None  # the view box whose x range is followed
        self.header = QLabel()
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        self.copy_buttons = {}
        for name in COPY:
            button = QPushButton(f"Copy as {name}")
            button.setToolTip(f"Every table of the summary, as {name}")
            button.clicked.connect(lambda _=False, n=name: self.copy(n))
            top.addWidget(button)
            self.copy_buttons[name] = button
        self.tabs = QTabWidget()
        self.stats = self._table()
        self.diff = self._table()
        self.waits = {source: self._table() for source, _, _ in WAITS}
        self.wait_titles = {source: QLabel() for source, _, _ in WAITS}
        waits = QWidget()
        wl = QHBoxLayout(waits)
        wl.setContentsMargins(0, 0, 0, 0)
        for source, _, _ in WAITS:
            box = QVBoxLayout()
            box.addWidget(self.wait_titles[source])
            box.addWidget(self.waits[source], 1)
            wl.addLayout(box, 1)
        self.steps = self._table()
        self.steps_diff = self._table()
        self.step_view = StepsView(session)  # TPS and latency against concurrency, whole runs
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.steps)
        left.addWidget(self.steps_diff)
        steps = QSplitter(Qt.Orientation.Horizontal)
        steps.addWidget(left)
        steps.addWidget(self.step_view)
        steps.setStretchFactor(0, 3)
        steps.setStretchFactor(1, 2)
        self.tab_index = {
            "stats": self.tabs.addTab(self.stats, "Statistics"),
            "diff": self.tabs.addTab(self.diff, "B vs A"),
            "waits": self.tabs.addTab(waits, "Top waits"),
            "steps": self.tabs.addTab(steps, "Load steps"),
        }
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addLayout(top)
        lay.addWidget(self.tabs, 1)
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(DEBOUNCE_MS)
        self.timer.timeout.connect(self.refresh)
        self._stale = True  # not summarised since the last change (it is only while shown)
        # what the tables show was summarised from: runs, window and series. Opening runs asked
        # three times for the same summary (the charts' rebuild, their first fit, the debounce):
        # 10 runs of 24 h, 0.3 s each. The runs' data changes only with runsChanged.
        self._summarised: tuple[object, ...] | None = None
        session.comparisonChanged.connect(lambda: QTimer.singleShot(0, self, self._follow))
        session.runsChanged.connect(self._forget)
        # the charts rebuild on it too: follow their new top panel (else zooms went unheard)
        session.runsChanged.connect(lambda: QTimer.singleShot(0, self, self._follow))
        self._follow()
        self.refresh()

    def _table(self) -> QTableWidget:
        t = QTableWidget()
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.verticalHeader().setVisible(False)
        t.verticalHeader().setDefaultSectionSize(22)
        t.setAlternatingRowColors(True)
        t.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        t.customContextMenuRequested.connect(lambda pos, w=t: self._menu(w, pos))
        return t

    # ---- following the charts -------------------------------------------------------------------
    def _follow(self) -> None:
        """The charts were rebuilt: follow the new top panel's x range, and summarise again."""
        plots = self.chart.built_plots()  # not `plots`: that builds the panels below the fold now
        vb = plots[0].vb if plots else None
        if vb is not self._watched:
            if self._watched is not None:
                with contextlib.suppress(RuntimeError, TypeError):  # its plot may be gone already
                    self._watched.sigXRangeChanged.disconnect(self.schedule)
            if vb is not None:
                vb.sigXRangeChanged.connect(self.schedule)
            self._watched = vb
        self.timer.stop()
        self.refresh()  # already after the charts' rebuild; only zooms and pans wait for the debounce

    def schedule(self, *_: object) -> None:
        self.timer.start()

    def _forget(self) -> None:
        self._summarised = None  # the runs were reloaded: their series may have changed

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            QTimer.singleShot(0, self, self.refresh)

    def refresh(self) -> None:
        if self.session.closed:
            return
        if not self.isVisible():  # collapsed (a short window): summarised when it is shown
            self._stale = True
            return
        self._stale = False
        c = self.session.comparison
        known = {r.id for r in self.session.runs()}
        runs = [r for r in c.runs if r in known]
        if not runs:
            self.summary = None
            self._summarised = None
            self.header.setText("<i>Compare runs to see their statistics over the window the charts show.</i>")
            for w in (self.stats, self.diff, self.steps, self.steps_diff, *self.waits.values()):
                self._fill(w, None)
            self.step_view.refresh([])
            for name in ("diff", "waits", "steps"):
                self.tabs.setTabVisible(self.tab_index[name], False)
            return
        x = self.chart.visible_range()
        window = Window(x[0] if x else None, x[1] if x else None, c.align, dict(c.offsets), c.side_by_side)
        refs: list[SeriesRef] = []
        for p in c.panels:
            refs.extend(r for r in p.refs if r not in refs)
        key = (tuple(runs), window, tuple(refs))
        if key == self._summarised:
            return  # what the tables show already
        self.summary = s = summarize(self.data, runs, window, refs)
        self._summarised = key
        tables = {t.key: t for t in s.tables()}
        self._header(s)
        self._fill(self.stats, tables.get("stats"))
        self._fill(self.diff, tables.get("diff"))
        for source, _, _ in WAITS:
            t = tables.get(f"waits:{source}")
            self._fill(self.waits[source], t)
            self.wait_titles[source].setText(f"<b>{t.title}</b> ({t.columns[2].name.split()[0]})" if t else "")
            self.waits[source].setVisible(t is not None)
            self.wait_titles[source].setVisible(t is not None)
        self._fill(self.steps, tables.get("steps"))
        self._fill(self.steps_diff, tables.get("steps-diff"))
        self.steps_diff.setVisible("steps-diff" in tables)
        if s.steps:
            self.step_view.refresh([r.id for r in s.runs])  # a fixed-concurrency run beside them: a point
        if "diff" in tables and not self.tabs.isTabVisible(self.tab_index["diff"]):
            self.tabs.setTabVisible(self.tab_index["diff"], True)
            self.tabs.setCurrentIndex(self.tab_index["diff"])  # two runs: their comparison first
        self.tabs.setTabVisible(self.tab_index["diff"], "diff" in tables)
        self.tabs.setTabVisible(self.tab_index["waits"], any(k.startswith("waits:") for k in tables))
        if "steps" in tables and not self.tabs.isTabVisible(self.tab_index["steps"]):
            self.tabs.setTabVisible(self.tab_index["steps"], True)
            self.tabs.setCurrentIndex(self.tab_index["steps"])  # a step load: its steps first
        self.tabs.setTabVisible(self.tab_index["steps"], "steps" in tables)

    def _header(self, s: Summary) -> None:
        names = []
        for k, r in enumerate(s.runs):
            tag = f"{'AB'[k]} = " if len(s.runs) >= 2 and k < 2 else ""
            names.append(f'<span style="color:{self.session.color(r.id)}">■</span> {tag}<b>{r.name}</b>')
        self.header.setText(f"Window: {s.window.describe()} &nbsp; " + " &nbsp; ".join(names))

    def _fill(self, widget: QTableWidget, table: Table | None) -> None:
        widget.clear()
        if table is None:
            self.tables.pop(widget, None)
            widget.setRowCount(0)
            widget.setColumnCount(0)
            return
        self.tables[widget] = table
        widget.setColumnCount(len(table.columns))
        widget.setRowCount(len(table.rows))
        widget.setHorizontalHeaderLabels([c.name for c in table.columns])
        shown_in = _rescaled(table)
        colors = [self.session.color(r.id) for r in self.summary.runs[:2]] if self.summary else []
        for j, col in enumerate(table.columns):
            tag = col.name.rsplit(" ", 1)[-1]
            if len(colors) == 2 and tag in ("A", "B"):  # A and B columns in their runs' colours
                head = widget.horizontalHeaderItem(j)
                if head is not None:
                    base = widget.horizontalHeader().palette().color(QPalette.ColorRole.Button).name()
                    head.setForeground(QColor(readable(colors["AB".index(tag)], base)))
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        for i, row in enumerate(table.rows):
            for j, (value, col) in enumerate(zip(row, table.columns, strict=True)):
                item = QTableWidgetItem(fmt(value, col.kind))
                if j in shown_in.get(i, {}):
                    item.setText(shown_in[i][j])
                if col.kind != "text":
                    item.setTextAlignment(right)
                if isinstance(value, float) and math.isfinite(value):
                    item.setToolTip(repr(value))
                widget.setItem(i, j, item)
        widget.setToolTip(table.note)
        header = widget.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        if table.columns and table.columns[0].kind == "text":
            widget.resizeColumnsToContents()
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
            widget.setColumnWidth(0, min(widget.columnWidth(0), 340))  # long wait names: see the tooltip

    # ---- copying --------------------------------------------------------------------------------
    def copy(self, name: str, tables: list[Table] | None = None) -> str:
        """Put the tables (default: the whole summary) on the clipboard as text, Markdown or CSV."""
        if tables is None:
            tables = self.summary.tables() if self.summary is not None else []
        text = COPY[name](tables) if tables else ""
        QGuiApplication.clipboard().setText(text)
        return text

    def _menu(self, widget: QTableWidget, pos: QPoint) -> None:
        table = self.tables.get(widget)
        if table is None:
            return
        menu = QMenu(self)
        for name in COPY:
            menu.addAction(f"Copy table as {name}", partial(self.copy, name, [table]))
        menu.addSeparator()
        for name in COPY:
            menu.addAction(f"Copy whole summary as {name}", partial(self.copy, name))
        menu.exec(widget.viewport().mapToGlobal(pos))


def add_summary_dock(window: QMainWindow, view: SummaryView, height: int = 210) -> QDockWidget:
    """The Summary panel docked under the charts (View menu: show or hide it)."""
    dock = QDockWidget("Summary", window)
    dock.setObjectName("summary")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.resizeDocks([dock], [height], Qt.Orientation.Vertical)
    return dock


def _rescaled(table: Table) -> dict[int, dict[int, str]]:
    """{row: {column: text}} for the rows of a table with a unit column whose values read better in
    another unit (app/ticks.row_unit: 39918.4 ms is 39.9 s), the unit cell included."""
    names = [c.name for c in table.columns]
    if "unit" not in names:
        return {}
    at = names.index("unit")
    numeric = [j for j, c in enumerate(table.columns) if c.kind == "num"]
    out: dict[int, dict[int, str]] = {}
    for i, row in enumerate(table.rows):
        values = {j: float(v) for j in numeric if isinstance((v := row[j]), int | float)}
        scale, unit = row_unit(list(values.values()), str(row[at]))
        if scale != 1.0 or unit != row[at]:
            out[i] = {at: unit, **{j: fmt(v / scale, "num") for j, v in values.items()}}
    return out
