"""The metric browser: source ▸ metric ▸ entity with units and a filter; items drag onto a panel
or are added to a new panel by double-click. Names are shown whole (the name column takes its
widest name and the browser scrolls sideways; each item's tooltip is its full series name), and
what the user expanded stays expanded when the tree is rebuilt (a series added, runs changed)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.model import SeriesRef
from benchlens.app.ui import mime
from benchlens.app.ui.session import Session

REF = Qt.ItemDataRole.UserRole


class MetricTree(QTreeWidget):
    def mimeTypes(self) -> list[str]:
        return [mime.SERIES]

    def mimeData(self, items: Sequence[QTreeWidgetItem]) -> QMimeData:
        return mime.series_mime(refs_of(items))


def children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [c for k in range(item.childCount()) if (c := item.child(k)) is not None]


def refs_of(items: Sequence[QTreeWidgetItem]) -> list[SeriesRef]:
    """The series under the items: an entity, or every entity of a metric."""
    refs: list[SeriesRef] = []
    for item in items:
        ref = item.data(0, REF)
        if isinstance(ref, SeriesRef):
            refs.append(ref)
        for child in children(item):
            child_ref = child.data(0, REF)
            if isinstance(child_ref, SeriesRef) and child.childCount() == 0:
                refs.append(child_ref)
    return list(dict.fromkeys(refs))


class MetricsView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.filter = QLineEdit(placeholderText="Filter metrics…")
        self.filter.textChanged.connect(self.apply_filter)
        self.tree = MetricTree()
        self.tree.setHeaderLabels(["series", "unit"])
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.tree.setDragEnabled(True)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.itemDoubleClicked.connect(lambda item, _: self.session.add_series(refs_of([item])))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.filter)
        lay.addWidget(self.tree)
        self._shown: dict[SeriesRef, str] | None = None
        # Deferred: the tree must not be rebuilt inside the signal of one of its own items.
        session.comparisonChanged.connect(self._later)
        session.runsChanged.connect(self._later)
        self.refresh()

    def _later(self) -> None:
        QTimer.singleShot(0, self, self.refresh)  # bound to self: dropped if the widget goes first

    def refresh(self) -> None:
        """The series of the runs in the comparison (all runs when none is compared yet)."""
        s = self.session
        if s.closed:  # a deferred refresh arriving after the library was closed
            return
        runs = s.comparison.runs or [r.id for r in s.runs()]
        units: dict[SeriesRef, str] = {}
        for r in runs:
            for ref, info in s.series(r).items():
                units.setdefault(ref, info.unit)
        if units == self._shown:
            return
        self._shown = units
        opened = self.expanded()
        scroll = self.tree.verticalScrollBar().value()
        self.tree.clear()
        sources: dict[str, QTreeWidgetItem] = {}
        metrics: dict[tuple[str, str], QTreeWidgetItem] = {}
        for ref in sorted(units):
            src = sources.get(ref.format)
            if src is None:
                src = sources[ref.format] = QTreeWidgetItem(self.tree, [ref.format])
                src.setFlags(src.flags() & ~Qt.ItemFlag.ItemIsDragEnabled)
                src.setToolTip(0, ref.format)
            key = (ref.format, ref.metric)
            met = metrics.get(key)
            if met is None:
                met = metrics[key] = QTreeWidgetItem(src, [ref.metric, units[ref]])
                met.setData(0, REF, SeriesRef(ref.format, ref.metric, ref.entity) if not ref.entity else None)
                met.setToolTip(0, f"{ref.format}:{ref.metric}" + (f" ({units[ref]})" if units[ref] else ""))
            if ref.entity:
                ent = QTreeWidgetItem(met, [ref.entity, units[ref]])
                ent.setData(0, REF, ref)
                ent.setToolTip(0, ref.spec() + (f" ({units[ref]})" if units[ref] else ""))
        self.apply_filter(self.filter.text())
        self.expand(opened)
        self.tree.verticalScrollBar().setValue(scroll)

    def expanded(self) -> set[tuple[str, ...]]:
        """The path (source, metric) of every expanded item."""
        out: set[tuple[str, ...]] = set()
        for k in range(self.tree.topLevelItemCount()):
            src = self.tree.topLevelItem(k)
            if src is not None and src.isExpanded():
                out.add((src.text(0),))
                out.update((src.text(0), m.text(0)) for m in children(src) if m.isExpanded())
        return out

    def expand(self, paths: set[tuple[str, ...]]) -> None:
        for k in range(self.tree.topLevelItemCount()):
            src = self.tree.topLevelItem(k)
            if src is None:
                continue
            if (src.text(0),) in paths:
                src.setExpanded(True)
            for m in children(src):
                if (src.text(0), m.text(0)) in paths:
                    m.setExpanded(True)

    def apply_filter(self, text: str) -> None:
        text = text.lower().strip()
        tops = (self.tree.topLevelItem(i) for i in range(self.tree.topLevelItemCount()))
        for src in (s for s in tops if s is not None):
            any_src = False
            for met in children(src):
                hit = not text or text in f"{src.text(0)} {met.text(0)}".lower()
                any_ent = False
                for ent in children(met):
                    show = hit or text in ent.text(0).lower()
                    ent.setHidden(not show)
                    any_ent |= show
                met.setHidden(not (hit or any_ent))
                any_src |= hit or any_ent
            src.setHidden(not any_src)
            if text:  # a filter opens what it found; clearing it leaves the tree as the user left it
                src.setExpanded(True)
