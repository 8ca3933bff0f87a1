"""What the window tests share: a main window opened on a library, and a fake mouse drag."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, QSettings, Qt

from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.session import Session


def open_window(qtbot, db: Path, settings: Path, show: bool = True) -> MainWindow:
    """The main window on the library `db`, its settings in the INI file `settings`; close it with
    close_window()."""
    session = Session(db)
    w = MainWindow(session, QSettings(str(settings), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    if show:
        w.show()
    return w


def close_window(w: MainWindow) -> None:
    w.close()
    w.session.close()


class FakeDrag:
    """The parts of pyqtgraph's MouseDragEvent a view box reads."""

    def __init__(self, vb, x_from: float, x_to: float, finish: bool) -> None:
        self._pos = vb.mapFromView(QPointF(x_to, 0))
        self._last = vb.mapFromView(QPointF(x_from, 0))
        self._finish = finish
        self.accepted = False

    def button(self):
        return Qt.MouseButton.LeftButton

    def modifiers(self):
        return Qt.KeyboardModifier.ControlModifier

    def pos(self):
        return self._pos

    def lastPos(self):
        return self._last

    def isFinish(self):
        return self._finish

    def accept(self):
        self.accepted = True
