"""The crosshair readout (issue 12): every series drawn shows at the cursor, each with its own
source's sampling (a Performance Schema dump every 2 s showed in 19 of 450 positions), in human
units, and a gap in a capture shows as no value rather than a stale one. Issue 24: a tooltip-style
box for the panel under the cursor, the time its header, a row per run with its name, short
series names, a layout that neither changes nor resizes the panels while the mouse moves."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis.layout import Panel
from benchlens.app.model import SeriesRef
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.readout import Curve, table_of, value_at, value_text

REF = SeriesRef("vmstat", "us")


def test_each_series_is_read_with_its_own_sampling_and_gaps_stay_gaps() -> None:
    fast = Curve.of(0, 1, REF, np.arange(0.0, 100.0), np.arange(100.0), "")
    slow_x = np.concatenate([np.arange(0.0, 50.0, 10.0), np.arange(200.0, 260.0, 10.0)])
    slow = Curve.of(0, 1, REF, slow_x, slow_x / 10, "ms")
    assert slow.step == 10.0 and fast.step == 1.0
    assert value_at(fast, 41.5) == 41.0 and value_at(slow, 47.0) == 4.0  # the sample in force
    assert value_at(slow, 100.0) is None  # 60 s after its last sample before the gap: no value
    assert value_at(slow, 205.0) == 20.0 and value_at(slow, -1.0) is None
    nan = Curve.of(0, 1, REF, np.arange(5.0), np.full(5, np.nan), "")
    assert value_at(nan, 2.0) is None  # an average over no events: nothing to show
    assert value_text(fast, value_at(fast, 47.0)) == "47" and value_text(slow, value_at(slow, 47.0)) == "4 ms"
    table = table_of(
        [fast], 0, Panel("CPU", [REF, SeriesRef("vmstat", "sy")]), [(1, "a", "#123456"), (2, "b", "#654321")]
    )
    assert table.columns == ["us", "sy"] and table.cells == [[fast, None], [None, None]]


def test_every_series_of_every_panel_shows_across_its_run(window: MainWindow) -> None:
    s, chart = window.session, window.chart
    mariadb = next(r.id for r in s.runs() if r.name == "mariadb")
    waits = [r for r in s.available(mariadb) if r.format == "perfschema" and r.metric == "SUM_TIMER_WAIT"]
    s.add_series(waits[:3])  # a 2 s Performance Schema dump beside 1 s reports
    shown = [c for c in chart.curves if c.run == mariadb and np.isfinite(c.y).any()]
    assert {c.ref.format for c in shown} >= {"sysbench", "vmstat", "iostat", "perfschema"}
    assert len({c.step for c in shown}) > 1  # sources sampled at different intervals
    x0 = min(float(c.x[0]) for c in shown)
    x1 = max(float(c.x[-1]) for c in shown)
    positions = np.linspace(x0, x1, 450)
    for c in shown:
        inside = positions[(positions >= c.x[0]) & (positions <= c.x[-1])]
        read = sum(value_at(c, float(x)) is not None for x in inside)
        assert read >= 0.95 * len(inside) - 1, (c.ref, read, len(inside))
    x = float(positions[200])
    for i, panel in enumerate(s.comparison.panels):  # the box of each panel: every value at x
        chart.show_at(x, i)
        box = chart.readout
        names = [n for n, r in zip(panel.legend(), panel.refs, strict=True) if r not in panel.hidden]
        assert box.table is not None and len(box.table.columns) == len(names)
        texts = {lb.text() for row in box.values for lb in row}
        for c in shown:
            if c.panel == i and value_at(c, x) is not None:
                assert value_text(c, value_at(c, x)) in texts


def test_the_readout_is_a_box_of_fixed_layout_that_never_resizes_the_panels(window: MainWindow, qtbot) -> None:
    s, chart = window.session, window.chart
    qtbot.wait(50)
    heights = [w.height() for w in chart.widgets]
    column = chart.column_scroll.height()
    x0, x1 = chart.nav.whole
    sizes = set()
    for x in np.linspace(x0, x1, 60):
        chart.show_at(float(x), 0)
        sizes.add((chart.readout.width(), chart.readout.height()))
    assert len(sizes) == 1  # the box keeps its size while the mouse moves
    assert [w.height() for w in chart.widgets] == heights and chart.column_scroll.height() == column
    box = chart.readout
    assert box.isVisible() and box.parentWidget() is chart
    assert box.header.text().count(" s") >= 1  # the time is the header
    runs = [lb for lb in box.findChildren(type(box.header)) if "■" in lb.text()]
    assert len(runs) == len(s.comparison.runs)  # a row per run: its colour and its name
    for r, lb in zip(s.comparison.runs, runs, strict=True):
        assert s.run(r).name in lb.text() and s.color(r) in lb.text()
    assert all(len(name) <= 16 for name in box.table.columns)  # short series names
