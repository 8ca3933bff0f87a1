"""File > Report (HTML)… (issue 26): the window writes the report `benchlens report` writes, of
the runs in the comparison, to the file the user picks (there was no way to it from the window)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import close_window, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
RUNS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"


@pytest.fixture
def window(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    db = library_of(tmp_path / "lib.sqlite", {n: RUNS / n for n in ("quiet-1", "cpu-hogs", "quiet-2")})
    w = laptop(qtbot, db, tmp_path / "settings.ini")
    yield w
    close_window(w)


def report_action(w: MainWindow):
    file_menu = next(a.menu() for a in w.menuBar().actions() if a.text() == "&File")
    return next(a for a in file_menu.actions() if a.text().startswith("Report (HTML)"))


def test_file_report_writes_the_comparisons_runs_as_one_page(window: MainWindow, tmp_path: Path, monkeypatch) -> None:
    w = window
    w.session.add_runs([r.id for r in w.session.runs() if r.name != "quiet-2"])
    asked: list[str] = []

    def pick(_parent, _caption, suggested, _filter):
        asked.append(suggested)
        return str(tmp_path / "nightly"), "HTML page (*.html *.htm)"  # typed without its suffix

    monkeypatch.setattr(QFileDialog, "getSaveFileName", pick)
    report_action(w).trigger()
    out = tmp_path / "nightly.html"
    assert out.exists()
    page = out.read_text(encoding="utf-8")
    assert "quiet-1" in page and "cpu-hogs" in page
    assert "<script" not in page.lower()
    assert "<svg" in page  # the comparison's figure, inline
    assert asked and asked[0].endswith("quiet-1-vs-cpu-hogs.html")
    assert str(out) in w.statusBar().currentMessage()
    assert "Trend across runs" not in page  # two runs: no trend


def test_three_runs_report_their_trend(window: MainWindow, tmp_path: Path, monkeypatch) -> None:
    w = window
    w.session.add_runs([r.id for r in w.session.runs()])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(tmp_path / "three.html"), ""))
    report_action(w).trigger()
    page = (tmp_path / "three.html").read_text(encoding="utf-8")
    assert "Trend across runs" in page and all(n in page for n in ("quiet-1", "cpu-hogs", "quiet-2"))


def test_no_runs_no_report_and_the_status_bar_says_why(window: MainWindow, tmp_path: Path, monkeypatch) -> None:
    w = window
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(tmp_path / "r.html"), ""))
    report_action(window).trigger()
    assert not (tmp_path / "r.html").exists()
    assert "no run in the comparison" in w.statusBar().currentMessage()
