"""The dark theme (issue 12): the window follows the palette (the system's, or View ▸ Theme), the
charts with it — background, titles, axes, legends, label veils — runs keep their colours, the
choice is remembered, and exports keep their own theme."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from benchlens.app.figure import figure_of
from benchlens.app.ingest import Options, import_path
from benchlens.app.palette import contrast
from benchlens.app.render import to_image
from benchlens.app.store import Library
from benchlens.app.ui import theme
from benchlens.app.ui.main_window import THEME_KEY, MainWindow
from tests.conftest import run_cli, stalled_folder
from tests.ui.conftest import close_window, laptop


@pytest.fixture(autouse=True)
def back_to_system():
    yield
    theme.use("system")  # the next tests see the palette the application started with


def lightness(color: QColor | str) -> float:
    return QColor(color).lightnessF()


def test_the_dark_theme_reaches_every_part_of_the_charts(window: MainWindow, qtbot, tmp_path: Path) -> None:
    s, chart = window.session, window.chart
    colors = {r: s.color(r) for r in s.comparison.runs}
    assert lightness(chart.widgets[0].backgroundBrush().color()) > 0.9
    window.theme_actions["dark"].trigger()
    qtbot.waitUntil(lambda: chart.theme.dark, timeout=2000)
    assert theme.is_dark(QApplication.palette()) and window.settings.value(THEME_KEY) == "dark"
    for widget, plot in zip(chart.widgets, chart.plots, strict=True):
        assert lightness(widget.backgroundBrush().color()) < 0.2
        assert lightness(plot.getAxis("left").textPen().color()) > 0.7  # tick labels readable
        assert f"color:{chart.theme.text}" in plot.titleLabel.item.toHtml().replace(" ", "") or (
            lightness(plot.titleLabel.item.defaultTextColor()) > 0.7
        )
    assert lightness(chart.axis_strip.backgroundBrush().color()) < 0.2
    assert lightness(chart.axis_strip.getPlotItem().getAxis("bottom").textPen().color()) > 0.7
    assert chart.drop_labels and all(lightness(t.fill.color()) < 0.2 for t in chart.drop_labels)  # dark veils
    for t in chart.drop_labels:  # issue 24: readable on the dark lane (purple on purple before)
        assert contrast(t.color.name(), chart.theme.background) >= 4.5
    assert {r: s.color(r) for r in s.comparison.runs} == colors  # colour still means run
    assert lightness(QApplication.palette().color(QPalette.ColorRole.Base)) < 0.2  # the lists too
    image = to_image(figure_of(s.rundata, s.comparison), (600, 400))
    assert lightness(image.pixelColor(3, 3)) > 0.95  # an export keeps its own (publication) theme
    window.theme_actions["light"].trigger()
    qtbot.waitUntil(lambda: not chart.theme.dark, timeout=2000)
    assert lightness(chart.widgets[0].backgroundBrush().color()) > 0.9


def test_the_chosen_theme_is_remembered(qtbot, db: Path, tmp_path: Path) -> None:
    settings = tmp_path / "theme.ini"
    w = laptop(qtbot, db, settings)
    w.set_theme("dark")
    close_window(w)
    theme.use("system")
    w = laptop(qtbot, db, settings)
    assert w.theme_actions["dark"].isChecked() and theme.is_dark(QApplication.palette())
    assert w.chart.theme.dark
    close_window(w)


def test_a_dark_system_palette_is_followed_without_a_choice(window: MainWindow, qtbot) -> None:
    QApplication.setPalette(theme.dark_palette())  # what a desktop switched to dark gives Qt
    qtbot.waitUntil(lambda: window.chart.theme.dark, timeout=2000)
    assert window.theme_actions["system"].isChecked()


def test_a_screenshot_in_the_dark_theme_zoomed(tmp_path: Path) -> None:
    db = tmp_path / "stall.sqlite"
    with Library(db) as lib:
        import_path(lib, stalled_folder(tmp_path), Options(name="stall"))
    out = tmp_path / "dark.png"
    args = ["screenshot", str(out), "--db", str(db), "--run", "stall", "--size", "1366x768"]
    p = run_cli(tmp_path, *args, "--theme", "dark", "--from", "5", "--to", "15", env={"QT_QPA_PLATFORM": "offscreen"})
    assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    assert lightness(image.pixelColor(1300, 300)) < 0.25  # the charts' background, dark
    bad = run_cli(tmp_path, *args, "--from", "15", "--to", "5", env={"QT_QPA_PLATFORM": "offscreen"})
    assert bad.returncode != 0 and "--from must be before --to" in bad.stderr and "Traceback" not in bad.stderr


def test_what_changed_and_the_summary_stay_readable_in_the_dark(qtbot, tmp_path: Path) -> None:
    """The change column's red and blue (#b22222, #1f4e9a) and the Summary's A and B headers in the
    runs' colours were drawn as they are on a dark table (blue on black, 1.9:1): made readable."""
    from tests.ui.conftest import library_of

    runs = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"
    db = library_of(tmp_path / "lib.sqlite", {n: runs / n for n in ("quiet-1", "disk-burst")})
    w = laptop(qtbot, db, tmp_path / "settings.ini", (1920, 1080))
    try:
        w.set_theme("dark")
        qtbot.waitUntil(lambda: w.chart.theme.dark, timeout=2000)
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.wait(100)
        run = next(r.id for r in w.session.runs() if r.name == "disk-burst")
        w.changed.show_drop(run, w.session.findings(run).drops[0])
        table = w.changed.table
        base = table.palette().color(QPalette.ColorRole.Base).name()
        cells = [table.item(row, 4) for row in range(table.rowCount())]
        assert cells and all(contrast(c.foreground().color().name(), base) >= 4.5 for c in cells if c is not None)
        heads = []
        for widget in w.summary.tables:
            header = widget.horizontalHeader()
            back = header.palette().color(QPalette.ColorRole.Button).name()
            for j in range(widget.columnCount()):
                item = widget.horizontalHeaderItem(j)
                if item is not None and item.text().rsplit(" ", 1)[-1] in ("A", "B"):
                    heads.append(contrast(item.foreground().color().name(), back))
        assert heads and min(heads) >= 4.5
    finally:
        close_window(w)
