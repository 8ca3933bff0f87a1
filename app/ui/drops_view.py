"""The drops of the compared runs: click one to zoom the charts to it and read what changed;
double-click a changed series to add it to the chart."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import numpy as np
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.analysis.drops import SENSITIVITY
from benchlens.app.analysis.run_drops import Findings, RecurringDrops, RunDrop
from benchlens.app.model import SeriesRef
from benchlens.app.palette import readable
from benchlens.app.ticks import reading_span
from benchlens.app.ui.changed_view import effect, proof_first
from benchlens.app.ui.marks import decided
from benchlens.app.ui.navigation import around
from benchlens.app.ui.session import Session

DROP = Qt.ItemDataRole.UserRole
REF = Qt.ItemDataRole.UserRole + 1
NOTE = Qt.ItemDataRole.UserRole + 2


def _when(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%H:%M:%S")


# what a reader must know of the candidates left out (run_drops.Findings.dismissed)
DISMISSED = (
    "Dips or rises the thresholds found that the run's own noise could explain (the series is too\n"
    "short to tell them from it) and that no other series confirms. A higher drop sensitivity\n"
    "(more false findings allowed) may show them."
)


class DropsView(QWidget):
    def __init__(
        self,
        session: Session,
        zoom: Callable[[float, float], None],
        on_drop: Callable[[int, RunDrop], None] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.zoom = zoom  # shows that x range on the charts
        self.on_drop = on_drop  # a drop clicked: what changed, in full (the main window's tab)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["drop", "start (UTC)"])
        # names are never cut: the first column takes its text's width and the list scrolls
        self.tree.header().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.header().setStretchLastSection(False)
        self.tree.itemClicked.connect(self.on_click)
        self.tree.itemDoubleClicked.connect(self.on_double)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.tree.customContextMenuRequested.connect(self._menu)
        self.sensitivity = QComboBox()
        self.sensitivity.addItems(list(SENSITIVITY))
        self.sensitivity.setCurrentText(session.sensitivity)
        self.sensitivity.setToolTip(
            "How deep and long a dip must be to count as a drop (as `benchlens drops --sensitivity`)"
        )
        self.sensitivity.currentTextChanged.connect(session.set_sensitivity)
        choice = QHBoxLayout()
        choice.addWidget(QLabel("Drop sensitivity:"))
        choice.addWidget(self.sensitivity, 1)
        self.hint = QLabel("<i>Click a drop to zoom to it and see what changed; double-click a series to plot it.</i>")
        self.hint.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(choice)
        lay.addWidget(self.tree)
        lay.addWidget(self.hint)
        session.comparisonChanged.connect(lambda: QTimer.singleShot(0, self, self.refresh))
        self.refresh()

    def refresh(self) -> None:
        """Per run: its notes, its drops, its recurring dips as one item (each dip under it) and
        its latency rises, by time; each drop or rise with what changed under it."""
        if self.session.closed:
            return
        self.tree.clear()
        self.sensitivity.setCurrentText(self.session.sensitivity)
        base = self.tree.palette().color(QPalette.ColorRole.Base).name()
        for r in self.session.comparison.runs:
            run = QTreeWidgetItem(self.tree, [self.session.run(r).name])
            # the run's colour, dark or light enough to read as text on the list (not greyed out)
            run.setForeground(0, QColor(readable(self.session.color(r), base)))
            font = run.font(0)
            font.setBold(True)
            run.setFont(0, font)
            found = self.session.findings(r)
            if found is None or not (found.drops or found.rises):
                QTreeWidgetItem(run, ["no drops detected", ""]).setDisabled(True)
            for note in self.session.notes(r):
                item = QTreeWidgetItem(run, [f"\u270e {note.label}", _when(note.start)])
                item.setData(0, NOTE, note.id)
            if found is not None:
                self._findings(run, r, found)
            if found is not None and found.dismissed:  # under the drops: what was left out, and why
                left = QTreeWidgetItem(run, [f"{found.dismissed} not significant, left out", ""])
                left.setDisabled(True)
                left.setToolTip(0, DISMISSED)
            run.setExpanded(True)

    def _findings(self, run: QTreeWidgetItem, r: int, found: Findings) -> None:
        items: list[tuple[float, RunDrop | RecurringDrops]] = [(d.drop.start, d) for d in found.singles() + found.rises]
        items += [(g.pattern.start, g) for g in found.recurring]
        for _, thing in sorted(items, key=lambda x: x[0]):
            if isinstance(thing, RecurringDrops):
                group = QTreeWidgetItem(run, [f"\u223f {thing.label()}", _when(thing.pattern.start)])
                group.setToolTip(0, thing.label())
                for member in thing.members:
                    self._drop(group, r, member)
            else:
                self._drop(run, r, thing)

    def _drop(self, parent: QTreeWidgetItem, r: int, rd: RunDrop) -> None:
        label, state = self.session.drop_label(r, rd.drop)
        item = QTreeWidgetItem(parent, [decided(label, state), _when(rd.drop.start)])
        if state == "dismissed":
            item.setText(0, f"{label} (dismissed)")
            item.setForeground(0, QColor("#999999"))
        item.setToolTip(0, "\n".join(x for x in (rd.verdict() or label, rd.drop.untested()) if x))
        item.setData(0, DROP, (r, rd))
        for phase in rd.phases:  # the levels it went through, each a drop of its own to click
            self._drop(item, r, phase)
        for c, also in proof_first(rd.explain):  # the rows of What changed: one per quantity, the proof first
            arrow = "\u2191" if c.change > 0 else "\u2193"
            unit = self.session.unit(r, c.ref)  # one unit chosen for the values, never 9.541e+04
            text = f"{arrow} {c.ref.spec()}  {reading_span(c.before, c.during, unit)}"
            child = QTreeWidgetItem(item, [text, effect(c, unit)])
            child.setData(0, REF, c.ref)
            tip = f"{text}\neffect size: shift during the drop over the spread of the steady state"
            if also:
                tip += "\nsame change in: " + ", ".join(r.spec() for r in also)
            child.setToolTip(0, tip)

    def on_click(self, item: QTreeWidgetItem, _col: int) -> None:
        data = item.data(0, DROP)
        if not data:
            return
        run_id, rd = data
        assert isinstance(rd, RunDrop)
        x0, x1 = self.session.x_of(run_id, np.array([rd.drop.start, rd.drop.end]))
        self.zoom(*around(float(x0), float(x1)))
        item.setExpanded(True)
        if self.on_drop is not None:
            self.on_drop(run_id, rd)

    def _menu(self, pos: QPoint) -> None:
        item = self.tree.itemAt(pos)
        if item is None:
            return
        menu = QMenu(self)
        drop = item.data(0, DROP)
        note = item.data(0, NOTE)
        if drop:
            run_id, rd = drop
            menu.addAction("Accept", lambda: self.session.decide_drop(run_id, rd.drop, "accepted"))
            menu.addAction("Rename\u2026", lambda: self.rename_drop(run_id, rd))
            menu.addAction("Dismiss", lambda: self.session.decide_drop(run_id, rd.drop, "dismissed"))
            menu.addAction("Restore", lambda: self.session.decide_drop(run_id, rd.drop, ""))
        elif note:
            menu.addAction("Edit\u2026", lambda: self.edit_note(note, item.text(0)[2:]))
            menu.addAction("Delete", lambda: self.session.delete_note(note))
        else:
            return
        menu.exec(self.tree.viewport().mapToGlobal(pos))

    def rename_drop(self, run_id: int, rd: RunDrop) -> None:
        label, state = self.session.drop_label(run_id, rd.drop)
        text, ok = QInputDialog.getText(self, "Rename drop", "Label:", text=label)
        if ok and text.strip():
            self.session.decide_drop(run_id, rd.drop, state or "accepted", text.strip())

    def edit_note(self, ann_id: int, old: str) -> None:
        text, ok = QInputDialog.getText(self, "Edit note", "Note:", text=old)
        if ok and text.strip():
            self.session.edit_note(ann_id, text.strip())

    def on_double(self, item: QTreeWidgetItem, _col: int) -> None:
        ref = item.data(0, REF)
        if isinstance(ref, SeriesRef):
            QTimer.singleShot(0, self, lambda: self.session.add_series([ref]))
