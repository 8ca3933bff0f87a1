"""The crosshair readout (issue 12): every series drawn shows at the cursor, each with its own
source's sampling (a Performance Schema dump every 2 s showed in 19 of 450 positions), in human
units, and a gap in a capture shows as no value rather than a stale one."""

from __future__ import annotations

import numpy as np

from benchlens.app.model import SeriesRef
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.readout import Curve, readout_html, value_at

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
    text = readout_html([fast, slow], ["CPU"], {1: "#123456"}, 47.0)
    assert "us 47" in text and "us 4 ms" in text and text.count("#123456") == 2


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
    chart.show_at(float(positions[200]))
    text = chart.readout.text()
    for c in shown:
        if value_at(c, float(positions[200])) is not None:
            assert c.ref.label() in text
