"""The app's Summary panel (pytest-qt, offscreen): it follows a zoom (one refresh once the view
settles), copies its tables, shows the load steps and the TPS vs concurrency chart."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchlens.app.analysis.tables import fmt, to_csv, to_markdown, to_text
from benchlens.app.model import SeriesRef
from tests.conftest import STEP_LOGS, assert_stats, numpy_stats, rid, stats_of
from tests.ui.conftest import close_window, open_window


@pytest.fixture
def window(qtbot, summary_db: Path, tmp_path: Path):
    w = open_window(qtbot, summary_db, tmp_path / "settings.ini", show=False)
    w.resize(1400, 900)
    w.show()
    yield w
    close_window(w)


def cell(table, row: int, col: str) -> str:
    names = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    return table.item(row, names.index(col)).text()


def test_panel_follows_a_zoom(window, qtbot) -> None:
    s = window.session
    a, b = rid(s.lib, "baseline"), rid(s.lib, "disk-stall")
    s.add_runs([a, b])
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    whole = stats_of(view.summary, b, SeriesRef("sysbench", "tps"))
    assert not view.tabs.isTabVisible(view.tab_index["steps"])
    assert view.tabs.currentIndex() == view.tab_index["diff"]
    calls = []
    original = view.refresh
    view.refresh = lambda: (calls.append(1), original())  # type: ignore[method-assign]
    view.timer.timeout.disconnect()
    view.timer.timeout.connect(view.refresh)
    for k in range(6):  # a wheel zoom: many range changes, one summary once it settles
        window.chart.plots[0].setXRange(35.0 + k, 65.0, padding=0)
    window.chart.plots[0].setXRange(40.0, 65.0, padding=0)
    qtbot.waitUntil(lambda: view.summary.window.x0 == 40.0, timeout=3000)
    qtbot.wait(400)
    assert len(calls) == 1
    zoomed = stats_of(view.summary, b, SeriesRef("sysbench", "tps"))
    t, v = s.data(b, SeriesRef("sysbench", "tps"))
    lo, hi = view.summary.window.t_range([s.run(a), s.run(b)], b)
    assert_stats(zoomed, numpy_stats(v[(t >= lo) & (t <= hi)]))
    assert zoomed.n < whole.n
    row = next(i for i in range(view.diff.rowCount()) if view.diff.item(i, 0).text() == "sysbench:tps")
    diff = next(t for t in view.summary.tables() if t.key == "diff")
    want = next(r for r in diff.rows if r[0] == "sysbench:tps")
    assert cell(view.diff, row, "mean B") == fmt(zoomed.mean, "num")
    assert cell(view.diff, row, "Δ mean") == fmt(want[4], "pct")
    assert "40.0 s to 65.0 s" in view.header.text()


def test_opening_runs_summarises_them_once_and_a_reload_again(window, qtbot, monkeypatch) -> None:
    """The charts' rebuild, their first fit and the debounce each asked for the same summary
    (three times 0.3 s for 10 runs of 24 h); reloaded runs summarise again, and the panel still
    follows a zoom after them (it went on watching the charts' panel of before the reload)."""
    import benchlens.app.ui.summary_view as summary_view

    calls = []
    real = summary_view.summarize
    monkeypatch.setattr(summary_view, "summarize", lambda *a, **k: (calls.append(a[2]), real(*a, **k))[1])
    s, view = window.session, window.summary
    s.add_runs([rid(s.lib, "baseline"), rid(s.lib, "disk-stall")])
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    qtbot.wait(400)  # past the debounce
    assert len(calls) == 1
    s.reload_runs()  # an import elsewhere: the same runs, maybe new series
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=3000)
    window.chart.plots[0].setXRange(40.0, 65.0, padding=0)
    qtbot.waitUntil(lambda: len(calls) == 3 and calls[-1].x0 == 40.0, timeout=3000)


def test_copy_buttons_put_the_tables_on_the_clipboard(window, qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    s = window.session
    s.add_runs([rid(s.lib, "baseline"), rid(s.lib, "disk-stall")])
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    tables = view.summary.tables()
    clipboard = QGuiApplication.clipboard()
    for name, renderer in (("text", to_text), ("Markdown", to_markdown), ("CSV", to_csv)):
        clipboard.setText("")
        qtbot.mouseClick(view.copy_buttons[name], Qt.MouseButton.LeftButton)
        assert clipboard.text() == renderer(tables)
    view.copy("CSV", [view.tables[view.diff]])  # a table's context menu: that table only
    assert clipboard.text() == to_csv([view.tables[view.diff]])
    assert clipboard.text().splitlines()[0].startswith("series,unit,mean A,mean B")


def test_panel_shows_steps_and_tps_and_latency_against_concurrency(window, qtbot, tmp_path) -> None:
    import pyqtgraph as pg

    from benchlens.app.stepchart import step_chart

    s = window.session
    ids = [rid(s.lib, p.stem) for p in STEP_LOGS[:2]]
    s.add_runs(ids)
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.steps) == 2, timeout=3000)
    assert view.tabs.isTabVisible(view.tab_index["steps"])
    chart = step_chart(s.rundata, ids)  # what `benchlens export --steps` draws
    steps = view.step_view
    for plot, key in ((steps.tps, "tps"), (steps.latency, "latency")):
        curves = [i for i in plot.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
        assert len(curves) == 2
        for curve, line in zip(curves, chart.lines, strict=True):
            x, y = curve.getData()
            assert list(x) == pytest.approx([math.log2(p.threads) for p in line.points])
            assert list(y) == pytest.approx([getattr(p, key) for p in line.points])
            assert curve.opts["symbol"] == "o"  # a step load: a line of points
        ticks = plot.getAxis("bottom")._tickLevels[0]
        assert [label for _, label in ticks] == [
            f"{t:g}" for t in sorted({p.threads for ln in chart.lines for p in ln.points})
        ]
    assert steps.latency.getPlotItem().titleLabel.text == f"Latency ({chart.latency})"
    assert view.steps.rowCount() == sum(len(view.summary.steps[r].steps) for r in ids)
    s.add_runs([rid(s.lib, "baseline")])  # one concurrency for the whole run: one diamond
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 3, timeout=3000)
    fixed = [i for i in steps.tps.getPlotItem().items if isinstance(i, pg.PlotDataItem)][-1]
    assert fixed.opts["symbol"] == "d" and fixed.opts["pen"] is None and len(fixed.getData()[0]) == 1
    for suffix in (".png", ".svg", ".csv"):
        out = steps.export(tmp_path / f"steps{suffix}")
        assert out is not None and out.stat().st_size > 100
    assert (tmp_path / "steps.csv").read_text().splitlines()[0].startswith("run,threads,tps,latency")


def test_panel_is_empty_without_runs(window) -> None:
    view = window.summary
    assert view.summary is None and view.stats.rowCount() == 0
    assert view.copy("text") == ""


def test_step_boundaries_and_thread_counts_are_marked_on_the_time_charts(window, qtbot) -> None:
    import pyqtgraph as pg

    from benchlens.app.figure import step_marks

    s = window.session
    ids = [rid(s.lib, p.stem) for p in STEP_LOGS[:2]]
    s.add_runs(ids)
    qtbot.wait(20)
    want = step_marks(s.rundata, [s.run(r) for r in ids], s.comparison.align)
    assert len(want) >= 4
    for plot in window.chart.plots:
        lines = [i for i in plot.items if isinstance(i, pg.InfiniteLine) and i.property("step") is not None]
        assert sorted((ln.value(), ln.property("step")) for ln in lines) == sorted((m.x, m.threads) for m in want)
    last = window.chart.plots[0]
    labels = [i.label.format for i in last.items if isinstance(i, pg.InfiniteLine) and i.property("step") is not None]
    assert sorted(labels) == sorted(f"{m.threads:g} thr" for m in want)  # the thread counts, once
