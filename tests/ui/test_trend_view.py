"""View > Trend: one chart per group of comparable runs, a point per run with its tags in the
tooltip, change points marked; a point opens its run, a change line B vs A; marks kept with
who set them. On a library file and on a server library (a real MariaDB, tests/store)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF, Qt

from benchlens.app.store import Library
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.trend_view import REGRESSION, TrendWindow
from tests.nightly import nightly
from tests.store.conftest import mariadb_server, server_url  # noqa: F401  (fixtures)
from tests.ui.conftest import close_window, open_window

STEP = [1000.0] * 25 + [930.0] * 25
pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")  # menus, offscreen


@pytest.fixture
def nightly_db(tmp_path: Path) -> str:
    db = tmp_path / "nightly.sqlite"
    with Library(db) as lib:
        nightly(lib, tmp_path / "a", STEP)
        nightly(lib, tmp_path / "b", [400.0] * 12, thds=2, prefix="b")
    return str(db)


@pytest.fixture
def trend(qtbot, nightly_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TrendWindow]:
    monkeypatch.setenv("BENCHLENS_USER", "carol")
    w = open_window(qtbot, Path(nightly_db), tmp_path / "settings.ini")
    action = next(a for a in w.menuBar().actions() if a.text() == "&View")
    trend_action = next(a for a in action.menu().actions() if a.text().startswith("Trend"))
    trend_action.trigger()
    t = w.trend_window
    qtbot.waitExposed(t)
    yield t
    t.close()
    close_window(w)


def _scatter(plot: pg.PlotItem) -> pg.ScatterPlotItem:
    return next(i for i in plot.items if isinstance(i, pg.ScatterPlotItem))


def _click(qtbot, t: TrendWindow, plot: pg.PlotItem, x: float, y: float, button=Qt.MouseButton.LeftButton) -> None:
    scene = plot.vb.mapViewToScene(QPointF(x, y))
    qtbot.mouseClick(t.charts.viewport(), button, pos=t.charts.mapFromScene(scene))


def test_one_chart_per_group_a_point_per_run_and_the_change_marked(trend: TrendWindow) -> None:
    assert [len(g["points"]) for g in trend.data["groups"]] == [50, 12]
    assert len(trend.plots) == 2
    assert [len(_scatter(p).data) for p in trend.plots] == [50, 12]
    ((line, change),) = trend.change_lines
    assert change["run"] == "n-025" and change["kind"] == "regression"
    assert line.pen.color().name() == REGRESSION
    assert "threads 8" in trend.plots[0].titleLabel.text and "threads 2" in trend.plots[1].titleLabel.text


def test_the_tooltip_names_the_run_and_its_tags(trend: TrendWindow) -> None:
    scatter = _scatter(trend.plots[0])
    spot = scatter.points()[13]
    tip = scatter.opts["tip"](x=spot.pos().x(), y=spot.pos().y(), data=spot.data())
    assert tip.splitlines()[0] == "n-013" and "version: 1.1" in tip


def test_a_point_opens_its_run_and_a_change_line_b_vs_a(qtbot, trend: TrendWindow) -> None:
    window = trend.parent()
    assert isinstance(window, MainWindow)
    plot = trend.plots[0]
    spot = _scatter(plot).points()[7]
    _click(qtbot, trend, plot, spot.pos().x(), spot.pos().y())
    names = lambda: [window.session.run(r).name for r in window.session.comparison.runs]  # noqa: E731
    qtbot.waitUntil(lambda: names() == ["n-007"], timeout=3000)
    line, _ = trend.change_lines[0]
    y = sum(plot.vb.viewRange()[1]) / 2
    _click(qtbot, trend, plot, line.value(), y)
    qtbot.waitUntil(lambda: names() == ["n-024", "n-025"], timeout=3000)
    assert "n-025" in window.changed.title.text() and "n-024" in window.changed.title.text()


def test_marks_are_kept_with_who_set_them_and_honoured(trend: TrendWindow) -> None:
    group = trend.data["groups"][0]
    menu = trend.point_menu(group["points"][25], group)
    next(a for a in menu.actions() if a.text().startswith("Mark as a known shift")).trigger()
    group = trend.data["groups"][0]
    assert [(s["run"], s["by"]) for s in group["known_shifts"]] == [("n-025", "carol")]
    assert group["changes"] == [] and trend.change_lines == []
    menu = trend.point_menu(group["points"][3], group)
    next(a for a in menu.actions() if a.text().startswith("Leave this run out")).trigger()
    assert len(_scatter(trend.plots[0]).data) == 49
    marks = {(m.run_id, m.kind, m.author) for m in trend.session.lib.marks()}
    ids = {p["run"]: p["id"] for p in trend.data["groups"][0]["points"]}
    assert (ids["n-025"], "shift", "carol") in marks and len(marks) == 2
    group = trend.data["groups"][0]
    menu = trend.point_menu(group["points"][0], group)
    next(a for a in menu.actions() if a.text().startswith("Put n-003 back")).trigger()
    assert len(_scatter(trend.plots[0]).data) == 50


def test_the_statistic_and_a_bad_metric(trend: TrendWindow) -> None:
    trend.stat_box.setCurrentText("p99")
    assert trend.data["stat"] == "p99"
    trend.metric_box.setEditText("tps")
    trend.refresh()
    assert trend.plots == [] and "SOURCE:METRIC" in trend.status.text()


def test_the_trend_of_a_server_library(qtbot, server_url: str, tmp_path: Path) -> None:  # noqa: F811
    with Library(server_url) as lib:
        nightly(lib, tmp_path / "runs", STEP)
    w = open_window(qtbot, Path(server_url), tmp_path / "settings.ini")
    try:
        from benchlens.app.ui.trend_view import open_trend

        t = open_trend(w)
        assert [len(_scatter(p).data) for p in t.plots] == [50]
        assert [c["run"] for _, c in t.change_lines] == ["n-025"]
        t.close()
    finally:
        close_window(w)


def test_grouped_by_a_tag(trend: TrendWindow) -> None:
    trend.group_box.setText("version")
    trend.group_box.editingFinished.emit()
    assert [g["key"] for g in trend.data["groups"]][:2] == [{"version": "1.0"}, {"version": "1.1"}]
    assert len(trend.plots) == len(trend.data["groups"]) == 5  # 1.0 .. 1.4 (the 12 runs of b share them)
