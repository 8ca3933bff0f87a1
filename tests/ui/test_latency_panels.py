"""Latency panels a reader can read (issue 24): the demo's small-buffer-pool run has one p95 of
2,932 ms between two gaps among values of 5-20 ms. The lone sample was not drawn at all (a line
through one point draws nothing) and, drawn, it flattened the usual range onto "0 s": the panel
is cut just above the usual range and the spike marked with its value, in the window and the
export alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest

from benchlens.app.analysis.decimate import MinMaxPyramid, lone_dashes, minmax_view
from benchlens.app.resources import demo_folders
from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import comparing_all, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")


@pytest.fixture
def spiky(qtbot, tmp_path: Path):
    folders = {f.name: f for f in demo_folders() if f.name in ("small-buffer-pool", "baseline")}
    db = library_of(tmp_path / "demo.sqlite", folders)
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def test_a_lone_sample_between_gaps_is_drawn() -> None:
    x = np.arange(10.0)
    y = np.array([1, 2, np.nan, 2932.6, np.nan, 3, 4, np.nan, 5, np.nan])
    for xs, ys in (MinMaxPyramid(x, y).view(0, 10, 100), minmax_view(x, y, 0, 10, 100)):
        at = np.flatnonzero(ys == 2932.6)
        assert len(at) == 2 and xs[at[1]] - xs[at[0]] == pytest.approx(0.4)  # a 4 px dash
        assert np.isfinite(ys[at[0] - 1]) is np.False_ and np.isfinite(ys[at[1] + 1]) is np.False_
    wide, _ = lone_dashes(x, y, 0.4)
    assert len(wide) == len(x) + 2  # 2932.6 and 5: one more point each; 1-2 and 3-4 are lines already
    # at a coarse zoom the lone sample is one bin's min and max at one x: widened as well
    many = np.full(100_000, np.nan)
    many[50_000] = 7.0
    xs, ys = MinMaxPyramid(np.arange(100_000.0), many).view(0, 100_000, 500)
    finite = xs[np.isfinite(ys)]
    assert finite.max() - finite.min() >= 3.9 * 100_000 / 500


def test_one_spike_does_not_flatten_a_latency_panel(spiky: MainWindow) -> None:
    w, s = spiky, spiky.session
    i = next(k for k, p in enumerate(s.comparison.panels) if p.title.startswith("Latency"))
    plot = w.chart.plots[i]
    plot.vb.prepareForPaint()
    hi = plot.vb.viewRange()[1][1]
    assert 15 < hi < 40  # the usual 5-20 ms, not 0-3,000
    marks = [it.textItem.toPlainText() for it in plot.items if isinstance(it, pg.TextItem)]
    assert marks == ["\u25b2 2.93 s"]
    # the readout still reads the true value
    (curve,) = [c for c in w.chart.curves if c.panel == i and np.nanmax(c.y) > 2000]
    assert np.nanmax(curve.y) == pytest.approx(2932.6)


def test_the_export_cuts_the_spike_and_marks_it(spiky: MainWindow, tmp_path: Path) -> None:
    from benchlens.app.figure import figure_of
    from benchlens.app.render import export
    from tests.cli.test_export import svg_texts

    s = spiky.session
    out = tmp_path / "latency.svg"
    export(figure_of(s.rundata, s.comparison), out, (1200, 675))
    texts = [t for _, t in svg_texts(out)]
    assert "\u25b2 2.93 s" in texts
    assert "3 s" not in texts and "2.5 s" not in texts and "20 ms" in texts  # ticks of the usual range


def test_clipped_peak_marks_do_not_pile_up() -> None:
    """A 4-hour log with the same 39.9 s lock spike every 9 minutes drew three marks on top of each
    other: the highest peaks, a mark's width apart."""
    from benchlens.app.analysis.spikes import clip_top, peaks

    x = np.arange(14_400.0)
    y = np.full_like(x, 300.0)
    y[[300, 840, 1380, 9000]] = [39_900.0, 39_900.0, 39_950.0, 39_000.0]
    top = clip_top([y])
    assert top == pytest.approx(315.0)
    assert peaks(x, y, top) == [(1380.0, 39_950.0), (300.0, 39_900.0), (840.0, 39_900.0)]
    assert peaks(x, y, top, apart=0.08 * 14_400) == [(1380.0, 39_950.0), (9000.0, 39_000.0)]


def test_the_summary_reads_a_latency_row_in_the_unit_its_values_call_for(spiky: MainWindow, qtbot) -> None:
    """The Statistics row of the p95 read `2932.6` in a column headed ms (issue 24: one unit per
    line, chosen for the values): with that sample the row is in seconds."""
    spiky.summary_dock.show()  # collapsed at 768 px high
    view = spiky.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    table = view.stats
    names = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    rows = [[table.item(i, j).text() for j in range(table.columnCount())] for i in range(table.rowCount())]
    spike = next(r for r in rows if r[0] == "sysbench:lat_ms:95" and r[names.index("max")].startswith("2.93"))
    assert spike[names.index("unit")] == "s"
    usual = next(r for r in rows if r[0] == "sysbench:lat_ms:95" and r is not spike)
    assert usual[names.index("unit")] == "ms"  # the other run's p95 stays in ms
