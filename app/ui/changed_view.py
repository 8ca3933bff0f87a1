"""What changed during a drop, in full: one row per series, ranked as the analysis ranks them,
with the whole series name, its unit, the steady level before, the level during the drop and the
effect size (and the other tools that saw the same change). It lives in a wide dock under the
charts, tabbed with the Summary; a double-click on a row plots that series."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QColor
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

from benchlens.app.analysis.run_drops import RunDrop
from benchlens.app.model import SeriesRef
from benchlens.app.ticks import format_ticks
from benchlens.app.ui.session import Session

COLUMNS = ("series", "unit", "before", "during the drop", "change (σ)", "same change in")
REF = Qt.ItemDataRole.UserRole


def _value(v: float, unit: str) -> str:
    (text,) = format_ticks([v], unit) if unit else (f"{v:.4g}",)
    return text


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
        self.table.itemDoubleClicked.connect(self._plot)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.addWidget(self.title)
        lay.addWidget(self.table)

    def show_drop(self, run_id: int, rd: RunDrop) -> None:
        s = self.session
        label, _ = s.drop_label(run_id, rd.drop)
        when = datetime.fromtimestamp(rd.drop.start, UTC).strftime("%H:%M:%S")
        color = s.color(run_id)
        self.title.setText(
            f'<b style="color:{color}">{s.run(run_id).name}</b>: {label}, from {when} UTC'
            f" ({rd.drop.end - rd.drop.start:.0f} s) — what changed, most relevant first"
        )
        self.table.setRowCount(len(rd.explain))
        for row, c in enumerate(rd.explain):
            unit = s.unit(run_id, c.ref)
            arrow = "\u2191" if c.change > 0 else "\u2193"
            cells = [
                f"{arrow} {c.ref.spec()}",
                unit,
                _value(c.before, unit),
                _value(c.during, unit),
                f"{c.change:+.1f}",
                ", ".join(r.spec() for r in c.similar),
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(REF, c.ref)
                item.setToolTip(text)
                if col >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if col == 4:
                    item.setForeground(QColor("#b22222" if c.change > 0 else "#1f4e9a"))
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
    return dock
