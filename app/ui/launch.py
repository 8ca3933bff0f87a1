"""Starting the app: the library window, the demo comparison, and offscreen screenshots."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from benchlens.app.resources import demo_folders


def _need_offscreen(force: bool) -> None:
    if force or not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or sys.platform in ("darwin", "win32")
    ):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def _app() -> object:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0]])
    app.setApplicationName("benchlens")
    _set_identity(app)
    return app


def _set_identity(app: object) -> None:
    """The window icon and the .desktop entry the desktop shell matches the window to."""
    from PySide6.QtGui import QIcon

    from benchlens.app.resources import icon_files

    app.setDesktopFileName("benchlens")  # type: ignore[attr-defined]  # resources/benchlens.desktop
    icon = QIcon()
    for png in icon_files():
        icon.addFile(str(png))
    if not icon.isNull():
        app.setWindowIcon(icon)  # type: ignore[attr-defined]


def gui_app(offscreen: bool = False) -> object:
    """The application object fonts and painters need (offscreen when there is no display)."""
    _need_offscreen(offscreen)
    return _app()


def demo_library(db_path: Path) -> list[int]:
    """Import the bundled demo runs (a no-op when already there) and return their ids."""
    from benchlens.app.ingest import Options, import_path
    from benchlens.app.store import Library

    ids = []
    with Library(db_path) as lib:
        for folder in demo_folders():
            ids.append(import_path(lib, folder, Options(name=f"demo: {folder.name}")).id)
    return ids


def build_window(
    db_path: Path, demo: bool = False, runs: list[str] | None = None, settings_file: Path | None = None
) -> object:
    """The main window on the library, comparing `runs` (or the demo runs, or the last view);
    its settings (size, docks, splitters, theme) in `settings_file`, the user's by default."""
    from PySide6.QtCore import QSettings

    from benchlens.app.ui.main_window import LAST_VIEW, MainWindow
    from benchlens.app.ui.session import Session

    ids = demo_library(db_path) if demo else []
    session = Session(db_path)
    for ref in runs or []:
        ids.append(int(session.lib.run(ref).id))
    config = settings_file or user_settings()
    window = MainWindow(session, QSettings(str(config), QSettings.Format.IniFormat))
    if ids:
        session.add_runs(ids)
    else:
        session.open_view(LAST_VIEW)
    return window


def user_settings() -> Path:
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "benchlens" / "benchlens.ini"


def run_app(db_path: Path, demo: bool = False) -> int:
    _need_offscreen(False)
    app = _app()
    window = build_window(db_path, demo)
    window.show_on_screen()  # type: ignore[attr-defined]
    return int(app.exec())  # type: ignore[attr-defined]


def screenshot(
    out: Path,
    db_path: Path,
    demo: bool = False,
    runs: list[str] | None = None,
    size: tuple[int, int] = (1400, 900),
    theme: str = "system",
    x_range: tuple[float, float] | None = None,
) -> Path:
    """Render the main window offscreen to a PNG (in a theme, zoomed to x_range if given), as a
    window opens the first time: not with the user's window size and docks, and leaving them,
    and the library's last view, as they were (a 1920x1080 screenshot reopened the user's window
    at that size, with the What changed dock of a scripted click)."""
    import tempfile

    from benchlens.app.ui import theme as themes

    _need_offscreen(True)
    app = _app()
    themes.use(theme)
    scratch = tempfile.TemporaryDirectory(prefix="benchlens-shot-")
    window = build_window(db_path, demo, runs, Path(scratch.name) / "benchlens.ini")
    window.resize(*size)  # type: ignore[attr-defined]
    window.show()  # type: ignore[attr-defined]
    for _ in range(10):  # a resize settles in rounds: the label lane's rows follow its width
        app.processEvents()  # type: ignore[attr-defined]
    if x_range is not None:
        window.chart.zoom_to(*x_range)  # type: ignore[attr-defined]
        for _ in range(5):
            app.processEvents()  # type: ignore[attr-defined]
    image = window.grab()  # type: ignore[attr-defined]
    window.session.close()  # type: ignore[attr-defined]  # first: closing the window then saves nothing
    window.close()  # type: ignore[attr-defined]
    scratch.cleanup()
    if not image.save(str(out), "PNG"):
        raise OSError(f"cannot write {out}")
    return out
