"""File > Report (HTML)…: the runs of the comparison as the one self-contained HTML page
`benchlens report` writes (app/report.py; the first run is A, each other a B against it; from
three runs on, their trend), to a file the user picks (issue 26: the window had no way to it)."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMainWindow, QWidget

from benchlens.app.errors import BenchlensError
from benchlens.app.report import build_report, trend_of, write_report
from benchlens.app.ui.session import Session

FOLDER_KEY = "report/folder"  # where the last report went: the next one is offered there


class NoRunsError(BenchlensError):
    """A report was asked for with no run in the comparison."""


def write_comparison_report(session: Session, out: Path) -> Path:
    """The report of the comparison's runs written to `out` (.html added when missing); a failed
    write leaves no half file (write_report)."""
    runs = list(session.comparison.runs)
    if not runs:
        raise NoRunsError("no run in the comparison: add runs to report on")
    out = out if out.suffix.lower() in (".html", ".htm") else out.with_name(out.name + ".html")
    trend = trend_of(session.lib, runs)
    html = build_report(session.rundata, runs, None, trend)
    try:
        return write_report(html, out)
    except OSError as e:
        raise BenchlensError(f"cannot write {out}: {e.strerror or e}") from None


def report_to_file(parent: QWidget, session: Session, settings: QSettings) -> Path | None:
    """Ask where to write the report, write it (busy cursor: a long comparison takes seconds) and
    return where it went; None when cancelled. Raises BenchlensError."""
    if not session.comparison.runs:
        raise NoRunsError("no run in the comparison: add runs to report on")
    names = [session.run(r).name for r in session.comparison.runs]
    folder = Path(str(settings.value(FOLDER_KEY, str(Path.home()))))
    stem = re.sub(r"[^\w.-]+", "_", "-vs-".join(names))[:80]
    suggested = folder / f"{stem}.html"
    chosen, _ = QFileDialog.getSaveFileName(parent, "Report (HTML)", str(suggested), "HTML page (*.html *.htm)")
    if not chosen:
        return None
    QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
    try:
        out = write_comparison_report(session, Path(chosen))
    finally:
        QGuiApplication.restoreOverrideCursor()
    settings.setValue(FOLDER_KEY, str(out.parent))
    return out


def report_from_window(window: QMainWindow, session: Session, settings: QSettings) -> Path | None:
    """The menu's action: the report written where the user says, told in the status bar."""
    try:
        out = report_to_file(window, session, settings)
    except BenchlensError as e:
        window.statusBar().showMessage(f"No report: {e}", 8000)
        return None
    if out is not None:
        window.statusBar().showMessage(f"Report written to {out}", 8000)
    return out
