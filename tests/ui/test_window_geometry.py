"""Where the window opens (issue 24 item 14): within the screen's available geometry (it opened at
1400×900 whatever the screen, its right and bottom edges off a 1366×768 laptop's), maximised on a
screen smaller than that, the Summary collapsed on a short one; and as it was left: its size, docks
and splitters kept in the settings (saveGeometry/saveState). The offscreen platform's screen is
800×800, smaller than the default size, as a small laptop's is."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings

from benchlens.app.ui.main_window import DEFAULT_SIZE, MainWindow
from benchlens.app.ui.session import Session
from tests.ui.conftest import close_window


def opened(qtbot, db: Path, settings: Path) -> MainWindow:
    w = MainWindow(Session(db), QSettings(str(settings), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.show_on_screen()
    qtbot.waitExposed(w)
    return w


def test_the_window_opens_within_a_small_screen_maximised_summary_collapsed(qtbot, db: Path, tmp_path: Path) -> None:
    w = opened(qtbot, db, tmp_path / "settings.ini")
    screen = w.screen().availableGeometry()
    assert screen.width() < DEFAULT_SIZE[0] or screen.height() < DEFAULT_SIZE[1]  # what this test is about
    assert w.isMaximized()
    assert w.width() <= screen.width() and w.height() <= screen.height()
    assert not w.summary_dock.isVisible()  # under 900 px: the charts take the height
    close_window(w)


def test_size_and_splitters_are_kept_for_the_next_window(qtbot, db: Path, tmp_path: Path) -> None:
    settings = tmp_path / "settings.ini"
    w = opened(qtbot, db, settings)
    w.showNormal()
    w.resize(700, 560)
    left, main = w.splitters
    main.setSizes([200, 500])
    left.setSizes([300, 100, 100])
    qtbot.wait(20)
    sizes = (left.sizes(), main.sizes())
    size = (w.width(), w.height())
    assert size[0] == 700
    close_window(w)
    again = opened(qtbot, db, settings)
    qtbot.wait(20)
    assert not again.isMaximized()  # as it was left, not maximised again
    assert (again.width(), again.height()) == size
    assert (again.splitters[0].sizes(), again.splitters[1].sizes()) == sizes
    close_window(again)
