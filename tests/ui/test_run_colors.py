"""Run colours (issue 24 item 1): a run's colour is its place in the comparison, the same in the
window and in every export, from a colour-blind safe palette that reads on both themes, and no
two runs of one comparison alike (it followed the library id and repeated after 10)."""

from __future__ import annotations

import itertools

from PySide6.QtGui import QColor

from benchlens.app import render
from benchlens.app.figure import figure_of
from benchlens.app.palette import LINE_CONTRAST, RUN_COLORS, contrast, readable, run_color
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.theme import DARK, LIGHT


def distance(a: str, b: str) -> float:
    ca, cb = QColor(a), QColor(b)
    return sum((x - y) ** 2 for x, y in zip(ca.getRgb()[:3], cb.getRgb()[:3], strict=True)) ** 0.5


def test_every_run_colour_reads_on_both_themes_and_none_repeats() -> None:
    colors = [run_color(k) for k in range(20)]  # two rounds: twice the runs a comparison shows well
    assert colors[: len(RUN_COLORS)] == list(RUN_COLORS)
    for c in colors:
        assert contrast(c, LIGHT.background) >= LINE_CONTRAST and contrast(c, DARK.background) >= LINE_CONTRAST, c
    for a, b in itertools.combinations(colors[: len(RUN_COLORS)], 2):
        assert distance(a, b) > 40, (a, b)
    for a, b in itertools.combinations(colors, 2):
        assert distance(a, b) > 20, (a, b)  # never two runs alike, even past the palette
    for c in colors:  # as text (a drop's label) each reaches 4.5:1 and keeps its hue
        for bg in (LIGHT.background, DARK.background):
            text = readable(c, bg)
            assert contrast(text, bg) >= 4.5
            assert abs(QColor(text).hslHue() - QColor(c).hslHue()) <= 12 or QColor(c).hslSaturation() < 40


def test_colour_is_the_place_in_the_comparison_in_window_and_export(window: MainWindow) -> None:
    s = window.session
    first, second = s.comparison.runs
    s.remove_run(first)
    s.add_runs([first])  # now the run with the higher library id comes first
    assert s.comparison.runs == [second, first]
    assert s.color(second) == RUN_COLORS[0] and s.color(first) == RUN_COLORS[1]
    fig = figure_of(s.rundata, s.comparison)
    for theme in (render.SCREEN, render.PUBLICATION):
        look = render.look_of(fig, 1200, 675, theme)
        assert {r: c.name() for r, c in look.color.items()} == {r: s.color(r) for r in s.comparison.runs}
    curve = next(item for item in window.chart.plots[0].items if item.property("run") == second)
    assert curve.opts["pen"].color().name() == RUN_COLORS[0]
