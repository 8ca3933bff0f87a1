"""The heatmap panel in the window (issue #25): 16 CPUs (synthetic: bench/heatmap_data.py, no
host here has more than 2), two of them hot for two minutes. The entity and value under the
cursor, the colour scale and its clamp, and an export that draws the same rows, bins and scale."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QPointF

from bench.heatmap_data import many_cpus
from benchlens.app.analysis.panel import parse_panel
from benchlens.app.figure import csv_rows, figure_of
from benchlens.app.heatmap_render import heatmap_of
from benchlens.app.render import to_image
from benchlens.app.store import Library
from benchlens.app.ui.main_window import MainWindow
from tests.conftest import FIXTURES
from tests.ui.conftest import comparing_all, library_of, right_click

pytestmark = pytest.mark.qt_log_ignore(
    "This plugin does not support (raise|grabbing the keyboard)"
)  # the menu, offscreen


@pytest.fixture
def hot(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    db = tmp_path / "cpus.sqlite"
    with Library(db) as lib:
        many_cpus(lib, 600, name="16-cpus", cpus=16, hot=2)  # CPUs 4 and 5 at 90-99 % from 300 s for 120 s
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def test_the_cursor_reads_the_cpu_and_its_value(hot: MainWindow) -> None:
    chart, panels = hot.chart, hot.session.comparison.panels
    i = next(k for k, p in enumerate(panels) if p.refs[0].entity == "*")  # the default layout's heatmap
    heat = chart.heatmaps[i]
    assert [e for _, e in heat.grid.rows] == [str(c) for c in range(16)]
    n, x = len(heat.grid.rows), float(heat.grid.edges[0]) + 360.0
    plot = chart.plots[i]
    chart._moved(plot, (plot.vb.mapViewToScene(QPointF(x, n - 4 - 0.5)),))  # row 4 from the top
    shown = heat.label.textItem.toPlainText()
    assert heat.label.isVisible() and shown.startswith("4 ") and shown.endswith("%")
    assert 90 <= float(shown.split()[1]) <= 99
    quiet = heat.readout(x, n - 10 - 0.5)
    assert quiet.startswith("10 ") and float(quiet.split()[1]) < 60


def test_the_colour_scale_ends_at_its_clamp_and_says_it(hot: MainWindow) -> None:
    chart, panels = hot.chart, hot.session.comparison.panels
    i = next(k for k, p in enumerate(panels) if p.refs[0].entity == "*")
    g = chart.heatmaps[i].grid
    assert g.clamp == 100.0 and g.unit == "%"  # a share of a CPU ends at 100 %
    assert "100 %" in chart.heatmaps[i].scale.labels
    img = chart.heatmaps[i].image.image
    hot_cell = img[len(g.rows) - 1 - 4, int(np.searchsorted(g.edges, g.edges[0] + 360.0)) - 1]
    assert hot_cell[0] > 100 and hot_cell[1] < 40  # dark red, not the orange of the 30 % around it


def test_the_export_draws_the_windows_rows_bins_and_scale(hot: MainWindow) -> None:
    s, chart = hot.session, hot.chart
    i = next(k for k, p in enumerate(s.comparison.panels) if p.refs[0].entity == "*")
    window = chart.heatmaps[i].grid
    fig = figure_of(s.rundata, s.comparison)
    x0, x1 = float(window.edges[0]), float(window.edges[-1])
    export = heatmap_of(fig, i, x0, x1, 1600)
    assert export is not None and export.rows == window.rows and export.clamp == window.clamp
    assert np.array_equal(export.edges, window.edges)
    assert np.array_equal(export.values, window.values, equal_nan=True)
    assert not to_image(fig).isNull()
    header = next(csv_rows(fig))  # the CSV carries every CPU of the heatmap
    assert sum(h.startswith("16-cpus mpstat:%busy:") and "all" not in h for h in header) == 16


def test_rows_by_load_from_the_panel_menu_put_the_hot_cpus_first(hot: MainWindow) -> None:
    s = hot.session
    i = next(k for k, p in enumerate(s.comparison.panels) if p.refs[0].entity == "*")
    actions = right_click(hot, i)
    assert not actions["Rows by load"].isChecked()
    actions["Rows by load"].trigger()
    assert s.comparison.panels[i].order == "load"
    rows = [e for _, e in hot.chart.heatmaps[i].grid.rows]
    assert set(rows[:2]) == {"4", "5"} and sorted(rows, key=int) == [str(c) for c in range(16)]
    fig = figure_of(s.rundata, s.comparison)  # the export orders its rows the same
    got = heatmap_of(fig, i, *fig.extent(), 800)
    assert got is not None and [e for _, e in got.rows] == rows


def test_two_runs_are_stacked_each_with_its_rows(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "two.sqlite"
    with Library(db) as lib:
        many_cpus(lib, 300, name="a", cpus=12, hot=1)
        many_cpus(lib, 300, name="b", cpus=10, hot=3, seed=4)
    for w in comparing_all(qtbot, db, tmp_path / "s.ini"):
        ids = [r.id for r in w.session.runs()]
        i = next(k for k, p in enumerate(w.session.comparison.panels) if p.refs[0].entity == "*")
        g = w.chart.heatmaps[i].grid
        assert [r for r, _ in g.rows] == [ids[0]] * 12 + [ids[1]] * 10
        names = {ids[0]: "a", ids[1]: "b"}
        assert w.chart.heatmaps[i].readout(float(g.edges[0]) + 10, 22 - 12 - 0.5).startswith(f"{names[ids[1]]}: 0 ")


def test_a_zoom_rebins_the_heatmap_to_the_time_in_view(hot: MainWindow, qtbot) -> None:
    chart, s = hot.chart, hot.session
    i = next(k for k, p in enumerate(s.comparison.panels) if p.refs[0].entity == "*")
    start = float(chart.heatmaps[i].grid.edges[0])
    chart.zoom_to(start + 290.0, start + 320.0)  # the hot stretch's start
    qtbot.waitUntil(lambda: chart.heatmaps[i].grid.edges[0] > start + 250.0, timeout=3000)
    g = chart.heatmaps[i].grid
    assert g.values.shape[1] <= 40  # one bin a sample at most: the 30 s in view
    row = [e for _, e in g.rows].index("4")
    x = start + 305.0
    assert g.at(x, row) is not None and g.at(x, row)[2] >= 90 and g.at(start + 295.0, row)[2] < 60


def test_every_cpu_of_a_two_cpu_host_is_lines_in_the_window(qtbot, tmp_path: Path) -> None:
    db = library_of(tmp_path / "hog.sqlite", {"hog": FIXTURES / "runs" / "one_hot_core"})
    for w in comparing_all(qtbot, db, tmp_path / "s.ini"):
        w.session.add_panel(parse_panel("mpstat:%busy:*"))
        i = len(w.session.comparison.panels) - 1
        assert i not in w.chart.heatmaps
        drawn = {c.ref.entity for c in w.chart.curves if c.panel == i}
        assert drawn == {"0", "1"}
        busy = next(c for c in w.chart.curves if c.panel == i and c.ref.entity == "1")
        assert float(np.max(busy.y)) == 100.0  # the pinned hog
