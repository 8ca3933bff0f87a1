"""The crosshair readout: a tooltip-style box over the charts beside the cursor, for the panel
under it: the time as its header, a row per run (its colour and name) and a column per series
(short names), each read with its own source's sampling (a 1 s benchmark report, a 2 s status
snapshot and a 10 s Performance Schema dump all show where the cursor is inside their run), in
human units like the axes. Its rows, columns and widths are set when the mouse enters a panel, not
while it moves: the box neither jumps nor resizes anything (issue 24: a paragraph under the
charts whose lines resized the panels)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property

import numpy as np
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics, QPalette
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QWidget

from benchlens.app.analysis.layout import Panel, shortened
from benchlens.app.model import SeriesRef
from benchlens.app.ticks import TimeScale, format_ticks, format_time

SHORT = 16  # characters of a series name in the box
GAP_PX = 16  # between the cursor and the box


@dataclass(frozen=True)
class Curve:
    """One series as drawn: its panel, run, reference, plotted x, values, unit and sampling step."""

    panel: int
    run: int
    ref: SeriesRef
    x: np.ndarray
    y: np.ndarray
    unit: str

    @classmethod
    def of(cls, panel: int, run: int, ref: SeriesRef, x: np.ndarray, y: np.ndarray, unit: str) -> Curve:
        return cls(panel, run, ref, x, y, unit)

    @cached_property
    def step(self) -> float:
        """Measured when the readout first needs it, not while the charts are built (a median
        over 86,400 gaps per series was a third of the first paint)."""
        return sampling_step(self.x)


def sampling_step(x: np.ndarray) -> float:
    """The series' usual spacing: the median gap between its samples (1 s with fewer than two)."""
    if len(x) < 2:
        return 1.0
    gaps = np.diff(x)
    gaps = gaps[gaps > 0]
    return float(np.median(gaps)) if len(gaps) else 1.0


def value_at(c: Curve, x: float) -> float | None:
    """The sample in force at x: the last one at or before it, if no more than one and a half of
    the series' own steps before (a gap in the capture shows as no value, not a stale one);
    None outside the series or where it has no value."""
    k = int(np.searchsorted(c.x, x, side="right")) - 1
    if k < 0 or x - c.x[k] > 1.5 * c.step:
        return None
    v = float(c.y[k])
    return v if np.isfinite(v) else None


def value_text(c: Curve, v: float | None) -> str:
    if v is None:
        return "–"
    return format_ticks([v], c.unit)[0] if c.unit else f"{v:.4g}"


def time_text(x: float, absolute: bool) -> str:
    """The cursor's time as the header reads it: a clock in UTC, or seconds (m:ss past 10 min)."""
    if absolute:
        return datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"{x:.1f} s" if abs(x) < 600 else format_time([x], TimeScale("h:mm:ss", ""), 1.0)[0]


@dataclass(frozen=True, eq=False)
class Table:
    """What the box shows for one panel: its series (short names) and, per run, the curve of each
    series (None where the run has none)."""

    title: str
    columns: list[str]
    runs: list[tuple[int, str, str]]  # run id, name, colour
    cells: list[list[Curve | None]]  # per run, per column


def table_of(curves: list[Curve], panel: int, spec: Panel, runs: list[tuple[int, str, str]]) -> Table:
    refs = [r for r in spec.refs if r not in spec.hidden]
    names = dict(zip(spec.refs, spec.legend(), strict=True))
    drawn = {(c.run, c.ref): c for c in curves if c.panel == panel}
    cells = [[drawn.get((r, ref)) for ref in refs] for r, _, _ in runs]
    return Table(spec.title, [shortened(names[ref], SHORT) for ref in refs], runs, cells)


def widest(c: Curve) -> str:
    """The longest value text the curve can give (its extremes), so a column never widens."""
    finite = c.y[np.isfinite(c.y)] if len(c.y) else c.y
    if not len(finite):
        return "–"
    texts = [value_text(c, float(v)) for v in (finite.min(), finite.max(), -abs(finite).max())]
    return max(texts, key=len)


class ReadoutBox(QFrame):
    """The box: laid out once per panel (`show_table`), its values set as the mouse moves
    (`show_values`), kept beside the cursor inside its parent. It takes no mouse events."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFrameShape(QFrame.Shape.Box)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(8, 6, 8, 6)
        self.grid.setHorizontalSpacing(12)
        self.grid.setVerticalSpacing(2)
        self.header = QLabel()
        self.table: Table | None = None
        self.key: object = None  # what the table was laid out for
        self.values: list[list[QLabel]] = []
        self.hide()

    def reset(self) -> None:
        """The charts were rebuilt: hidden, and laid out again when next shown."""
        self.hide()
        self.key = self.table = None

    def show_table(self, key: object, table: Table, absolute: bool) -> None:
        """Rows and columns for this panel (unless laid out for `key` already), each value cell
        as wide as its widest value, the header as wide as its longest time."""
        if key == self.key:
            return
        self.key = key
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None and widget is not self.header:
                widget.deleteLater()
        self.table = table
        fm = QFontMetrics(self.font())
        longest = time_text(0.0, True) if absolute else "-88:88:88"
        self.header.setMinimumWidth(fm.horizontalAdvance(f"{longest}  {table.title}") + fm.horizontalAdvance("00"))
        self.grid.addWidget(self.header, 0, 0, 1, len(table.columns) + 1)
        for j, name in enumerate(table.columns):
            head = QLabel(f"<i>{html.escape(name)}</i>")
            head.setAlignment(Qt.AlignmentFlag.AlignRight)
            self.grid.addWidget(head, 1, j + 1)
        self.values = []
        for i, (_, name, color) in enumerate(table.runs):
            run = QLabel(f'<span style="color:{color}">■</span> <b>{html.escape(shortened(name, 24))}</b>')
            self.grid.addWidget(run, i + 2, 0)
            row = []
            for j, c in enumerate(table.cells[i]):
                cell = QLabel()
                cell.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                text = widest(c) if c is not None else "–"
                cell.setFixedWidth(fm.horizontalAdvance(text) + fm.horizontalAdvance("0"))
                self.grid.addWidget(cell, i + 2, j + 1)
                row.append(cell)
            self.values.append(row)
        self.adjustSize()

    def show_values(self, x: float, absolute: bool, at: QPoint) -> None:
        """The values at x, the box beside `at` (the cursor, in the parent's coordinates): right
        of it, or left where the parent ends; never outside the parent."""
        table = self.table
        if table is None:
            return
        self.header.setText(f"<b>{html.escape(time_text(x, absolute))}</b> &nbsp; {html.escape(table.title)}")
        for row, cells in zip(self.values, table.cells, strict=True):
            for label, c in zip(row, cells, strict=True):
                label.setText(value_text(c, value_at(c, x)) if c is not None else "–")
        self.adjustSize()
        parent = self.parentWidget()
        if parent is None:
            return
        room = parent.rect()
        left = at.x() + GAP_PX if at.x() + GAP_PX + self.width() <= room.right() else at.x() - GAP_PX - self.width()
        top = min(max(at.y() - self.height() // 2, 0), max(room.bottom() - self.height(), 0))
        self.move(max(left, 0), top)
        self.raise_()
        self.show()
