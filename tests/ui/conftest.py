"""What the window tests share: a main window opened on a library (a laptop-sized one on a real
MariaDB run and a demo run, both compared), the panel menu opened by a right click, and a fake
mouse drag."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, QSettings, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from benchlens.app.ingest import Options, import_path
from benchlens.app.resources import demo_folders
from benchlens.app.store import Library
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.session import Session
from tests.conftest import FIXTURES


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


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A real MariaDB + sysbench run (every source) and a demo run (sysbench and the OS monitors)."""
    path = tmp_path / "panels.sqlite"
    with Library(path) as lib:
        import_path(lib, FIXTURES / "runs" / "recorded_mariadb_oltp", Options(name="mariadb"))
        # the demo's disk stall: a drop to shade, label and explain (the baseline has none since
        # drops stand on a test: issue 23)
        import_path(lib, next(f for f in demo_folders() if f.name == "disk-stall"), Options(name="disk-stall"))
    return path


def laptop(qtbot, db: Path, settings: Path, size: tuple[int, int] = (1366, 768)) -> MainWindow:
    w = open_window(qtbot, db, settings, show=False)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    return w


def library_of(db: Path, folders: dict[str, Path]) -> Path:
    """A library at `db` with these run folders imported, by name."""
    with Library(db) as lib:
        for name, folder in folders.items():
            import_path(lib, folder, Options(name=name))
    return db


def comparing_all(qtbot, db: Path, settings: Path) -> Iterator[MainWindow]:
    """A laptop window comparing every run of the library; closed after the test."""
    w = laptop(qtbot, db, settings)
    w.session.add_runs([r.id for r in w.session.runs()])
    qtbot.wait(50)
    yield w
    close_window(w)


@pytest.fixture
def window(qtbot, db: Path, tmp_path: Path) -> Iterator[MainWindow]:
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def right_click(window: MainWindow, index: int):
    viewport = window.chart.widgets[index].viewport()
    pos = viewport.rect().center()
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, pos, viewport.mapToGlobal(pos))
    QApplication.sendEvent(viewport, event)
    menu = window.chart.menu
    assert menu is not None and menu.isVisible()
    return {a.text(): a for a in menu.actions()}
