"""The window's axes read in human units and the run's time scale, with the same strings as an
export (issue 12); the metrics' legend sits above the plot area, not over the curves."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PySide6.QtGui import QImage, QPainter

from benchlens.app.figure import figure_of
from benchlens.app.ingest import Options, import_path
from benchlens.app.render import export
from benchlens.app.resources import demo_folders
from benchlens.app.store import Library
from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import close_window, open_window


@pytest.fixture
def window(qtbot, tmp_path: Path):
    db = tmp_path / "axes.sqlite"
    with Library(db) as lib:
        for name in ("baseline", "disk-stall"):
            import_path(lib, next(f for f in demo_folders() if f.name == name), Options(name=name))
    w = open_window(qtbot, db, tmp_path / "settings.ini", show=False)
    w.resize(1366, 768)
    w.show()
    qtbot.waitExposed(w)
    w.session.add_runs([r.id for r in w.session.runs()])
    qtbot.wait(20)
    yield w
    close_window(w)


def drawn(axis) -> list[tuple[float, float, str]]:
    """(top, bottom or left, right) and text of every tick label the axis draws now."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    specs = axis.generateDrawSpecs(painter)
    painter.end()
    vertical = axis.orientation in ("left", "right")
    out = []
    for rect, _, text in specs[2]:
        a, b = (rect.top(), rect.bottom()) if vertical else (rect.left(), rect.right())
        out.append((a, b, text))
    return out


def svg_texts(path: Path) -> list[str]:
    return ["".join(t.itertext()).strip() for t in ET.parse(path).iter("{http://www.w3.org/2000/svg}text")]


def panel_index(window: MainWindow, title: str) -> int:
    return next(i for i, p in enumerate(window.session.comparison.panels) if p.title.startswith(title))


def test_value_axes_speak_the_unit_without_overlap_and_as_the_export_does(window: MainWindow, tmp_path: Path) -> None:
    s, chart = window.session, window.chart
    labels: dict[str, list[str]] = {}
    for i, plot in enumerate(chart.plots):
        ticks = drawn(plot.getAxis("left"))
        texts = [t for _, _, t in ticks]
        assert texts and not any("e+" in t or "e-" in t for t in texts), texts
        spans = sorted((a, b) for a, b, _ in ticks)
        assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(spans))  # no overlap
        assert plot.getAxis("left").labelText == ""  # the unit is said once, next to the title
        labels[s.comparison.panels[i].title] = texts
    cpu = labels[s.comparison.panels[panel_index(window, "CPU")].title]
    assert all(t.endswith(" %") for t in cpu), cpu
    latency = labels[s.comparison.panels[panel_index(window, "Latency")].title]
    assert all(t.endswith("ms") or t.endswith(" s") for t in latency), latency
    tps = labels["Throughput (tps)"]
    assert all(t == "0" or t.rstrip("0123456789.k") == "" for t in tps), tps  # '1500' / '12k', not '1/s'
    out = export(figure_of(s.rundata, s.comparison), tmp_path / "fig.svg")
    texts = svg_texts(out)
    for title in ("CPU", "Latency", "Throughput"):  # the export reads the same strings
        window_ticks = set(labels[s.comparison.panels[panel_index(window, title)].title])
        assert window_ticks & set(texts), (title, window_ticks)
    assert not any("e+0" in t for t in texts)
    assert "Throughput (tps)" in texts and not any("[1/s]" in t or "(/s)" in t for t in texts)


def test_a_day_on_the_time_axis_reads_in_hours_in_the_window_and_the_export(
    window: MainWindow, qtbot, tmp_path: Path
) -> None:
    s, chart = window.session, window.chart
    chart.zoom_to(0.0, 86_400.0)
    qtbot.wait(50)
    axis = chart.axis_strip.getPlotItem().getAxis("bottom")
    texts = [t for _, _, t in drawn(axis)]
    assert "12:00" in texts and not any(t.isdigit() and int(t) > 999 for t in texts), texts
    spans = sorted((a, b) for a, b, _ in drawn(axis))
    assert all(b1 <= a2 for (_, b1), (a2, _) in itertools.pairwise(spans))
    qtbot.waitUntil(lambda: axis.labelText.startswith("time (h:mm)"))
    fig = figure_of(s.rundata, s.comparison)
    svg = svg_texts(export(fig, tmp_path / "day.svg"))
    assert "12:00" in svg and any(t.startswith("time (h:mm)") for t in svg)
    chart.zoom_to(0.0, 60.0)
    qtbot.waitUntil(lambda: axis.labelText.startswith("seconds"))


def test_on_the_clock_the_time_axis_reads_utc_times_and_the_date(window: MainWindow, qtbot, tmp_path: Path) -> None:
    s, chart = window.session, window.chart
    s.set_align("absolute")
    qtbot.wait(50)
    axis = chart.axis_strip.getPlotItem().getAxis("bottom")
    texts = [t for _, _, t in drawn(axis)]
    assert texts and all(":" in t for t in texts), texts
    qtbot.waitUntil(lambda: "(UTC)" in axis.labelText)
    svg = svg_texts(export(figure_of(s.rundata, s.comparison), tmp_path / "clock.svg"))
    assert any("(UTC)" in t for t in svg) and set(texts) & set(svg)


def test_the_metrics_legend_sits_beside_the_title_not_over_the_curves(window: MainWindow) -> None:
    s, chart = window.session, window.chart
    i = panel_index(window, "CPU")
    plot = chart.plots[i]
    assert len(s.comparison.panels[i].refs) > 1
    assert plot.legend is None  # no LegendItem inside the plot area
    title = plot.titleLabel
    assert not title.sceneBoundingRect().intersects(plot.vb.sceneBoundingRect().adjusted(0, 1, 0, 0))
    for label in s.comparison.panels[i].legend():  # every entry, none clipped away
        assert label[-20:] in title.text
