"""Help > Keyboard shortcuts: every shortcut of the window's menus and the keys the charts read."""

from __future__ import annotations

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QMenuBar, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget


def menu_shortcuts(bar: QMenuBar | QMenu) -> list[tuple[str, str]]:
    """(keys, what) of every action with a shortcut, in menu order, menus within menus too."""
    out: list[tuple[str, str]] = []
    for action in bar.actions():
        if action.menu() is not None:
            out += menu_shortcuts(action.menu())  # type: ignore[arg-type]
        elif not action.shortcut().isEmpty():
            what = action.text().replace("&", "").rstrip("…")
            out.append((action.shortcut().toString(QKeySequence.SequenceFormat.NativeText), what))
    return out


class ShortcutsDialog(QDialog):
    def __init__(self, rows: list[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(["keys", "does"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for i, (keys, what) in enumerate(rows):
            self.table.setItem(i, 0, QTableWidgetItem(keys))
            self.table.setItem(i, 1, QTableWidgetItem(what))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table)
        self.resize(520, 460)

    def rows(self) -> list[tuple[str, str]]:
        def text(i: int, j: int) -> str:
            item = self.table.item(i, j)
            return item.text() if item is not None else ""

        return [(text(i, 0), text(i, 1)) for i in range(self.table.rowCount())]
