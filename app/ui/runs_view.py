"""The runs library: a sortable, filterable table; rows drag onto the comparison area."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QMimeData, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QInputDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.errors import BenchlensError
from benchlens.app.model import Run
from benchlens.app.ui import mime
from benchlens.app.ui.session import Session

COLUMNS = ("name", "duration", "date", "host", "sources", "notes")  # what tells runs apart first
NAME_PX = 170  # the name column at most this wide (elided in the middle): the duration stays in view
Index = QModelIndex | QPersistentModelIndex


class RunsModel(QAbstractTableModel):
    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.rows: list[Run] = []
        session.runsChanged.connect(self.refresh)
        session.comparisonChanged.connect(self._recolor)  # a run's swatch is its place in the comparison
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        self.rows = self.session.runs()
        self.endResetModel()

    def _recolor(self) -> None:
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, 0))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        r = self.rows[index.row()]
        col = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.UserRole:  # sort key
            keys = {"date": r.start or 0, "duration": (r.end or 0) - (r.start or 0), "name": r.name.casefold()}
            return keys.get(col, self._text(r, col))
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(r, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{r.name}\n{r.folder}\nclock: {r.tz}\nkernel: {r.kernel or '-'}, CPUs: {r.cpus or '-'}"
        if role == Qt.ItemDataRole.DecorationRole and col == "name":
            from PySide6.QtGui import QColor

            return QColor(self.session.color(r.id))
        return None

    @staticmethod
    def _text(r: Run, col: str) -> Any:
        if col == "date":
            return datetime.fromtimestamp(r.start, UTC).strftime("%Y-%m-%d %H:%M") if r.start else "-"
        if col == "duration":
            return f"{(r.end - r.start):.0f} s" if r.start is not None and r.end is not None else "-"
        if col == "sources":
            return r.sources
        return getattr(r, col) or ""

    def flags(self, index: Index) -> Qt.ItemFlag:
        return super().flags(index) | Qt.ItemFlag.ItemIsDragEnabled

    def mimeTypes(self) -> list[str]:
        return [mime.RUNS]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        ids = sorted({self.rows[i.row()].id for i in indexes if i.isValid()})
        return mime.runs_mime(ids)


class RunsView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.model = RunsModel(session)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(Qt.ItemDataRole.UserRole)
        self.proxy.setFilterKeyColumn(-1)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.filter = QLineEdit(placeholderText="Filter runs…")
        self.filter.textChanged.connect(self.proxy.setFilterFixedString)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setDragEnabled(True)
        self.table.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)  # fitted by fit_names
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.setWordWrap(False)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # Qt's default indicator is descending
        self.model.modelReset.connect(self.fit_names)
        self.fit_names()
        self.table.doubleClicked.connect(lambda i: self.session.add_runs([self.run_id(i)]))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._menu)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.filter)
        lay.addWidget(self.table)

    def fit_names(self) -> None:
        """The name column as wide as its longest name, up to NAME_PX (a longer name is elided in
        the middle, its whole text in the tooltip): the duration beside it is never cut."""
        self.table.resizeColumnToContents(0)
        self.table.setColumnWidth(0, min(self.table.columnWidth(0), NAME_PX))

    def run_id(self, index: QModelIndex) -> int:
        return int(self.model.rows[self.proxy.mapToSource(index).row()].id)

    def selected(self) -> list[int]:
        return sorted({self.run_id(i) for i in self.table.selectionModel().selectedRows()})

    def _menu(self, pos: Any) -> None:
        ids = self.selected()
        if not ids:
            return
        menu = QMenu(self)
        menu.addAction("Compare", lambda: self.session.add_runs(ids))
        if len(ids) == 1:
            menu.addAction("Rename…", lambda: self.rename(ids[0]))
        menu.addAction("Delete…", lambda: self.delete(ids))
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def rename(self, run_id: int) -> None:
        old = self.session.run(run_id).name
        name, ok = QInputDialog.getText(self, "Rename run", "Name:", text=old)
        if ok and name.strip() and name != old:
            try:
                self.session.rename_run(run_id, name.strip())
            except BenchlensError as e:
                QMessageBox.warning(self, "Rename run", str(e))

    def delete(self, ids: list[int], confirm: bool = True) -> None:
        names = ", ".join(self.session.run(i).name for i in ids)
        if confirm:
            answer = QMessageBox.question(self, "Delete runs", f"Delete {names} and all its series from the library?")
            if answer != QMessageBox.StandardButton.Yes:
                return
        for i in ids:
            self.session.delete_run(i)
