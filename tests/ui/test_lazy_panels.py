"""The first paint builds only the panels in view (issue 24's speed target: bench/ui_speed.py);
the panels below the fold follow once the event loop is free, or at once when scrolled to, and
are then what they would have been built at first."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QApplication

from benchlens.app.ui.lazy_column import in_view
from benchlens.app.ui.panel_column import PanelPlot
from tests.ui.conftest import close_window, laptop


def bands(plot: pg.PlotItem) -> list[tuple[float, float]]:
    return sorted(
        tuple(round(v, 6) for v in it.getRegion())
        for it in plot.items
        if isinstance(it, pg.LinearRegionItem) and it.property("run") is not None
    )


def compare_on_more_panels(qtbot, w) -> None:
    """Both runs compared on their default panels and four more: the last ones below the fold."""
    s = w.session
    s.add_runs([r.id for r in s.runs()])
    qtbot.waitUntil(lambda: not w.chart.waiting, timeout=5000)
    s.comparison.panels = s.comparison.panels + s.more_panels()[:4]
    s.comparison.layout_is_default = False
    s.comparisonChanged.emit()


def test_the_first_paint_builds_the_panels_in_view_and_the_rest_follows(qtbot, db: Path, tmp_path: Path) -> None:
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        chart = w.chart
        compare_on_more_panels(qtbot, w)
        waiting = chart.waiting  # right after the change, before the event loop ran
        n = len(w.session.comparison.panels)
        assert waiting and waiting[-1] == n - 1 and 0 not in waiting
        for i in range(n):
            assert isinstance(chart.slots[i], PanelPlot) == (i not in waiting)
            assert in_view(chart.slots[i]) == (i not in waiting)
        heights = [s.height() for s in chart.slots]
        whole = chart.nav.whole
        qtbot.waitUntil(lambda: not chart.waiting, timeout=5000)  # built once the first paint is done
        QApplication.processEvents()
        # the placeholders held the panels' places: the panels did not move
        assert [s.height() for s in chart.slots] == heights
        # whole runs were known before: every series of every panel
        assert whole == (min(float(c.x[0]) for c in chart.curves), max(float(c.x[-1]) for c in chart.curves))
        drawn = {c.panel for c in chart.curves}
        for i in waiting:
            assert i in drawn  # its series, as the first panels have theirs
            assert bands(chart.plots[i]) == bands(chart.plots[0])  # and the drops' shades
        assert all(isinstance(s, PanelPlot) for s in chart.slots)
    finally:
        close_window(w)


def test_a_panel_scrolled_to_is_built_at_once_for_the_view_shown(qtbot, db: Path, tmp_path: Path) -> None:
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        chart, bar = w.chart, w.chart.column_scroll.verticalScrollBar()
        compare_on_more_panels(qtbot, w)
        last = len(w.session.comparison.panels) - 1
        assert last in chart.waiting
        chart.zoom_to(10.0, 20.0)
        bar.setValue(bar.maximum())  # no event loop in between: the scroll itself builds it
        assert last not in chart.waiting and isinstance(chart.slots[last], PanelPlot)
        item = next(item for p, item, _ in chart.decimated if p == last)
        xs = item.getData()[0]
        # its points for the view (a sample of margin each side: 2 s snapshots here), not the whole runs
        assert xs.min() >= 10.0 - 10 and xs.max() <= 20.0 + 10 and chart.nav.whole[1] - chart.nav.whole[0] > 60
        x0, x1 = chart.plots[last].vb.viewRange()[0]
        assert np.allclose((x0, x1), (10.0, 20.0))  # x-linked to the top panel
    finally:
        close_window(w)


def test_the_time_axis_strip_is_kept_across_drawings_and_follows_the_alignment(qtbot, db: Path, tmp_path: Path) -> None:
    w = laptop(qtbot, db, tmp_path / "s.ini")
    try:
        chart = w.chart
        strip = chart.axis_strip
        assert strip is not None and not strip.isVisible()  # made with the window, hidden without runs
        w.session.add_runs([r.id for r in w.session.runs()])
        assert chart.axis_strip is strip and strip.isVisible()
        axis = strip.getPlotItem().getAxis("bottom")
        assert not axis.absolute
        w.session.set_align("absolute")  # a rebuild: the same strip, its axis on the clock now
        assert chart.axis_strip is strip and axis.absolute
        qtbot.waitUntil(lambda: "UTC" in strip.getPlotItem().getAxis("bottom").labelText, timeout=3000)
        x0, x1 = strip.getPlotItem().vb.viewRange()[0]
        assert x0 > 1e9  # x-linked to the new top panel, on the clock
        assert np.allclose((x0, x1), chart.plots[0].vb.viewRange()[0])
    finally:
        close_window(w)
