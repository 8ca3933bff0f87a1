"""The smaller things of issue 24 (item 15), at 1366×768 on five recorded runs: the runs table
shows the duration and sorts names A to Z (it cut the duration and sorted in reverse); a run's name
in the drops list reads as text, not greyed out; a panel's title and metric legend fit the panel
(the Top waits legend ran past its edge); the drops' sensitivity is chosen in the window, with the
choices of `benchlens drops --sensitivity`."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QPalette

from benchlens.app.analysis.drops import SENSITIVITY
from benchlens.app.analysis.run_drops import run_findings
from benchlens.app.palette import contrast
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.runs_view import COLUMNS
from tests.ui.conftest import comparing_all, library_of

RUNS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"
FIVE = ("read-lock", "cpu-hogs", "quiet-1", "disk-burst", "small-pool")  # imported in this order


@pytest.fixture(scope="module")
def five_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return library_of(tmp_path_factory.mktemp("details") / "five.sqlite", {n: RUNS / n for n in FIVE})


@pytest.fixture
def five(qtbot, five_db: Path, tmp_path: Path):
    yield from comparing_all(qtbot, five_db, tmp_path / "settings.ini")


def test_the_runs_table_sorts_names_a_to_z_and_shows_the_duration(five: MainWindow) -> None:
    view = five.runs
    names = [view.proxy.index(k, 0).data() for k in range(view.proxy.rowCount())]
    assert names == sorted(FIVE)
    table = view.table
    duration = COLUMNS.index("duration")
    right = table.columnViewportPosition(duration) + table.columnWidth(duration)
    assert table.columnViewportPosition(duration) >= 0 and right <= table.viewport().width()
    assert table.columnWidth(duration) >= table.sizeHintForColumn(duration)  # "79 s" whole


def test_a_wide_window_shows_the_runs_dates_whole(qtbot, tmp_path: Path) -> None:
    """At 1920x1080 the side column stayed 330 px: the date of every run was cut beside a long
    name. A window whose layout the user never arranged gives it a share of its width; a laptop's
    stays 330 px (the charts need the room)."""
    from tests.ui.conftest import close_window, laptop

    fixture = RUNS.parents[2] / "tests" / "fixtures" / "runs" / "every_collector_cpuhog"
    db = library_of(tmp_path / "long.sqlite", {"every_collector_cpuhog": fixture, "quiet-1": RUNS / "quiet-1"})
    for size, side in (((1920, 1080), (331, 460)), ((1366, 768), (330, 330))):
        w = laptop(qtbot, db, tmp_path / f"{size[0]}.ini", size)
        try:
            assert side[0] <= w.splitters[1].sizes()[0] <= side[1]
            if size[0] == 1920:
                table = w.runs.table
                date = COLUMNS.index("date")
                assert table.columnViewportPosition(date) + table.columnWidth(date) <= table.viewport().width()
        finally:
            close_window(w)


def test_a_run_name_in_the_drops_list_reads_as_text(five: MainWindow) -> None:
    tree = five.drops.tree
    base = tree.palette().color(QPalette.ColorRole.Base).name()
    for k in range(tree.topLevelItemCount()):
        item = tree.topLevelItem(k)
        assert not item.isDisabled() and item.font(0).bold()
        assert contrast(item.foreground(0).color().name(), base) >= 4.5, item.text(0)


def test_every_panel_title_and_legend_fits_its_panel(five: MainWindow, qtbot) -> None:
    five.splitters[1].setSizes([560, 806])  # the runs table widened: the legends shorten, not run off
    qtbot.wait(50)
    chart = five.chart
    titles = [p.titleLabel.item.toPlainText() for p in chart.plots]
    assert any("wait/" in t or "…/" in t for t in titles)  # the Top waits panel is there
    for widget, plot in zip(chart.widgets, chart.plots, strict=True):
        text = plot.titleLabel.item.toPlainText()
        right = plot.titleLabel.mapRectToScene(
            plot.titleLabel.item.mapRectToParent(plot.titleLabel.item.boundingRect())
        )
        assert right.right() <= widget.width(), text
        names = [e for part in text.split("   ")[1:] for e in [part.strip()[4:]] if e]
        assert len(set(names)) == len(names), text  # shortened, still told apart


def test_the_drop_sensitivity_is_chosen_in_the_window(five: MainWindow, qtbot) -> None:
    s, combo = five.session, five.drops.sensitivity
    assert [combo.itemText(k) for k in range(combo.count())] == list(SENSITIVITY) == ["low", "normal", "high"]
    counts = {}
    for choice in ("low", "high"):
        combo.setCurrentText(choice)
        qtbot.wait(20)
        assert s.sensitivity == choice
        counts[choice] = sum(len(s.drops(r)) for r in s.comparison.runs)
        expected = sum(len(run_findings(s.rundata, r, sensitivity=choice).drops) for r in s.comparison.runs)
        assert counts[choice] == expected  # what `benchlens drops --sensitivity` finds
    assert counts["high"] > counts["low"]
    shown = sum(five.drops.tree.topLevelItem(k).childCount() for k in range(five.drops.tree.topLevelItemCount()))
    assert shown >= counts["high"] - 1 and five.chart.drop_labels  # the list and the charts follow
