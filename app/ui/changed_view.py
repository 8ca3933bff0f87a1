"""What changed during a drop, in full: one row per quantity (the analysis groups the tools that
measured it: `explain.by_quantity`), the series that proves the verdict first, then as the analysis
ranks them, with the whole series name, its unit, the steady level before, the level during the
drop, the effect size (in the series' units when it was flat before or the effect is beyond
SIGMA_SAID: "+10,993,500σ" says nothing) and the collectors that saw it. It lives in a wide dock
under the charts, tabbed with the Summary; a double-click on a row plots that series."""

from __future__ import annotations

import html
import math
from datetime import UTC, datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QLabel,
    QMainWindow,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.analysis.diff import diff_runs, series_by_quantity
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import by_quantity, verdict
from benchlens.app.analysis.processes import process_changes
from benchlens.app.analysis.run_drops import RunDrop
from benchlens.app.analysis.verdict import finding
from benchlens.app.analysis.window import explain_window
from benchlens.app.errors import BenchlensError
from benchlens.app.model import SeriesRef
from benchlens.app.palette import readable
from benchlens.app.ticks import reading, reading_span
from benchlens.app.ui.panel_column import MIN_PANEL_PX
from benchlens.app.ui.session import Session

COLUMNS = ("series", "unit", "before", "during", "change", "seen by")
DIFF_COLUMNS = ("series", "unit", "A", "B", "B vs A", "A per trx", "B per trx", "class")
TOP = 20  # series listed for a window: the table has the room
REF = Qt.ItemDataRole.UserRole
# what the charts keep above the dock: three panels of MIN_PANEL_PX and the window's other rows
# (menu, toolbar, run legend, time axis, readout: 250 px measured at 1366x768)
CHARTS_KEEP_PX = 3 * MIN_PANEL_PX + 250
DOCK_MIN_PX = 110  # the verdict, the header and two rows
DOCK_MAX_PX = 280  # the verdict and ten rows: on a tall screen the rest is charts (a 4th panel at 1080)
SIGMA_SAID = 100.0
SIGN_COLORS = {1: "#b22222", -1: "#1f4e9a", 0: "#808080"}  # a change up, down, none: made readable on the table
DIFF_COLUMN_PX = 320  # effects beyond this many robust sigmas are said in the series' units


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%H:%M:%S")


def _value(v: float, unit: str) -> str:
    return reading(v, unit) if math.isfinite(v) else ""


def effect(c: Change, unit: str) -> str:
    """The effect in robust sigmas (`+5.6σ`); in the series' units when it was flat before or the
    sigmas are beyond SIGMA_SAID (a near-flat series: `+0.025 /s`, not `+10,993,500σ`)."""
    if math.isfinite(c.change) and abs(c.change) <= SIGMA_SAID:
        return f"{c.change:+.1f}σ"
    moved = c.during - c.before
    return ("+" if moved >= 0 else "−") + reading(abs(moved), unit)


def proof_first(changes: list[Change]) -> list[tuple[Change, list[SeriesRef]]]:
    """One row per quantity, with the other series of it; the series that prove the verdict (its
    finding's key, or what it was inferred from: Finding.proof) first, though the ranking put them
    lower or left them out of the top entries."""
    found = finding(changes)
    proof = list(found.proof()) if found is not None else []
    rows = by_quantity([*proof, *changes], lambda c: c.ref)
    similar = {c.ref: c.similar for c in changes}  # a row's others: its own, and those of the entries it took in
    out = []
    for c, also in rows:
        refs = (*c.similar, *also, *(r for a in also for r in similar.get(a, ())))
        out.append((c, [r for r in dict.fromkeys(refs) if r != c.ref]))
    return out


def collectors(refs: list[SeriesRef]) -> str:
    """The tools that saw a quantity, each once: 'mpstat, vmstat, iostat'."""
    return ", ".join(dict.fromkeys(r.format for r in refs))


def throughput_gap(a: float, b: float) -> str:
    """Each run's mean throughput and B's relative gap to A: a chart's axis may magnify a 3 % gap."""
    if not (math.isfinite(a) and math.isfinite(b)):
        return ""
    gap = f" ({(b - a) / a:+.1%} for B)" if a else ""
    return f"mean throughput: A {reading(a)} tps, B {reading(b)} tps{gap}"


def _per_trx(v: float, unit: str) -> str:
    """A per-transaction value with its unit, scaled where the unit scales (kB, ms), else named."""
    text = _value(v, unit)
    return f"{text} {unit}" if text and unit and not any(c.isalpha() for c in text) else text


class WhatChangedView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.title = QLabel("<i>Click a drop in the drops list to see what changed during it.</i>")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(list(COLUMNS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        rows = self.table.verticalHeader()
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 6)  # 30 px rows left room for two
        self.table.itemDoubleClicked.connect(self._plot)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addWidget(self.title)
        lay.addWidget(self.table)

    def show_drop(self, run_id: int, rd: RunDrop) -> None:
        """What changed during a drop (or a latency rise), its verdict at the head."""
        s = self.session
        label, _ = s.drop_label(run_id, rd.drop)
        head = f"{label}, from {_when(rd.drop.start)} UTC ({rd.drop.end - rd.drop.start:.0f} s)"
        self._changes(run_id, head, rd.verdict(), rd.explain, (rd.drop.start, rd.drop.end))

    def show_window(self, run_id: int, x0: float, x1: float) -> None:
        """What changed here: a span of the charts (plotted x) against the run's steady state."""
        s = self.session
        t0, t1 = s.t_of(run_id, x0), s.t_of(run_id, x1)
        try:
            found = explain_window(s.rundata, run_id, (t0, t1), "absolute", top=TOP)
        except BenchlensError as e:
            self.title.setText(f"<i>{html.escape(str(e))}</i>")
            self.table.setRowCount(0)
            return
        work = f"; throughput {found.work:.0%} of its steady level" if math.isfinite(found.work) else ""
        head = f"the window {_when(t0)}–{_when(t1)} UTC ({t1 - t0:.0f} s){work}"
        self._changes(run_id, head, verdict(found.explain), found.explain, (t0, t1))

    def _changes(self, run_id: int, head: str, says: str, changes: list[Change], window: tuple[float, float]) -> None:
        s = self.session
        name = html.escape(s.run(run_id).name)
        who = "; ".join(
            f"{p.command} {reading_span(p.before, p.during, '%')}" for p in process_changes(s.rundata, run_id, window)
        )
        self.title.setText(
            f'<b style="color:{s.color(run_id)}">{name}</b>: {html.escape(head)} — what changed, most relevant first'
            + (f"<br><b>{html.escape(says)}</b>" if says else "")
            + (f"<br>processes using more CPU (pidstat): {html.escape(who)}" if who else "")
        )
        self._columns(COLUMNS)
        rows: list[tuple[SeriesRef | None, float, list[str]]] = []
        tips = []
        for c, also in proof_first(changes):
            unit = s.unit(run_id, c.ref)
            arrow = "\u2191" if c.during > c.before else "\u2193"
            cells = [f"{arrow} {c.ref.spec()}", unit, _value(c.before, unit), _value(c.during, unit)]
            rows.append((c.ref, c.during - c.before, [*cells, effect(c, unit), collectors([c.ref, *also])]))
            tips.append("same change in: " + ", ".join(r.spec() for r in also) if also else "")
        self._fill(rows, signed=4)
        for row, tip in enumerate(tips):
            if tip and (cell := self.table.item(row, 5)) is not None:
                cell.setToolTip(tip)

    def show_diff(self, a: int, b: int) -> None:
        """Run B against run A: every series both have, ranked by its relevant difference over the
        benchmark interval, also per transaction."""
        s = self.session
        try:
            found = diff_runs(s.rundata, a, b)
        except BenchlensError as e:
            self.title.setText(f"<i>{html.escape(str(e))}</i>")
            self.table.setRowCount(0)
            return
        names = [html.escape(s.run(r).name) for r in (a, b)]
        self.title.setText(
            f'<b style="color:{s.color(b)}">{names[1]}</b> against <b style="color:{s.color(a)}">{names[0]}</b>: '
            "the settings that differ, then each quantity over the benchmark interval (warm-up left out), "
            "most relevant first; a difference inside the runs' own variation last, in grey"
            f"<br><b>{html.escape(throughput_gap(*found.tps))}</b>"
        )
        self._columns(DIFF_COLUMNS)
        rows: list[tuple[SeriesRef | None, float, list[str]]] = []
        for c in found.config.changed + found.config.only:  # the settings that differ, first
            va, vb = (side.value if side else "(not set)" for side in (c.a, c.b))
            group = "setting" if c.group == "server" else f"setting [{c.group}]"
            rows.append((None, 0.0, [c.name, group, va, vb, "differs", "", "", "config"]))
        for d, _also in series_by_quantity(found.series):
            unit = s.unit(b, d.ref)
            change = "noise" if d.noise else f"{d.change:+.0%}" if math.isfinite(d.change) else ""
            cells = [d.ref.spec(), unit, _value(d.a, unit), _value(d.b, unit), change]
            cells += [_per_trx(d.per_trx_a, d.trx_unit), _per_trx(d.per_trx_b, d.trx_unit), d.klass]
            rows.append((d.ref, 0.0 if d.noise else d.effect, cells))
        self._fill(rows, signed=4)
        # a setting's value can be a whole command line: no column wider than DIFF_COLUMN_PX, so that
        # A, B and B vs A stay on a laptop's screen (each cell's tooltip has its whole text)
        header = self.table.horizontalHeader()
        for col in range(self.table.columnCount() - 1):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.table.resizeColumnToContents(col)
            self.table.setColumnWidth(col, min(self.table.columnWidth(col), DIFF_COLUMN_PX))

    def _columns(self, names: tuple[str, ...]) -> None:
        self.table.clear()
        for col in range(self.table.columnCount()):  # as wide as their contents again (show_diff caps them)
            self.table.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setColumnCount(len(names))
        self.table.setHorizontalHeaderLabels(list(names))

    def _fill(self, rows: list[tuple[SeriesRef | None, float, list[str]]], signed: int) -> None:
        """One row per series: numbers right-aligned, the signed column red up and blue down."""
        self.table.setRowCount(len(rows))
        base = self.table.palette().color(QPalette.ColorRole.Base).name()
        tones = {k: QColor(readable(c, base)) for k, c in SIGN_COLORS.items()}  # >= 4.5:1 in either theme
        for row, (ref, sign, cells) in enumerate(rows):
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(REF, ref)
                item.setToolTip(text)
                if 2 <= col < len(cells) - 1 or col == signed:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col == signed:
                    item.setForeground(tones[(sign > 0) - (sign < 0)])
                self.table.setItem(row, col, item)

    def rows(self) -> list[list[str]]:
        """The table as text (tests and copy)."""
        out = []
        for row in range(self.table.rowCount()):
            cells = [self.table.item(row, col) for col in range(self.table.columnCount())]
            out.append([c.text() if c is not None else "" for c in cells])
        return out

    def _plot(self, item: QTableWidgetItem) -> None:
        ref = item.data(REF)
        if isinstance(ref, SeriesRef):
            QTimer.singleShot(0, self, lambda: self.session.add_series([ref]))


def add_changed_dock(window: QMainWindow, view: WhatChangedView, beside: QDockWidget) -> QDockWidget:
    """The What changed dock, a tab beside the Summary under the charts."""
    dock = QDockWidget("What changed", window)
    dock.setObjectName("what-changed")
    dock.setWidget(view)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    window.tabifyDockWidget(beside, dock)
    beside.raise_()

    def fit(shown: bool) -> None:
        """Shown: as high as the charts leave with three panels readable (at 1366x768 it took 268 px
        and left two)."""
        if shown:
            height = max(DOCK_MIN_PX, min(window.height() - CHARTS_KEEP_PX, DOCK_MAX_PX))
            window.resizeDocks([dock], [height], Qt.Orientation.Vertical)

    dock.visibilityChanged.connect(fit)
    return dock
