"""A drop clicked in the drops list (issue 24 item 8): the charts zoom to the drop with about a
quarter of its length on each side (a 40 s drop showed the whole 200 s run), and the What changed
dock that opens leaves at least three panels in view at 1366×768 (it left two)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtWidgets import QTreeWidgetItemIterator

from benchlens.app.ui.drops_view import DROP
from benchlens.app.ui.main_window import MainWindow
from benchlens.app.ui.panel_column import MIN_PLOT_PX
from tests.ui.conftest import comparing_all, library_of

RUNS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"


@pytest.fixture
def pair(qtbot, tmp_path: Path) -> Iterator[MainWindow]:
    db = library_of(tmp_path / "pair.sqlite", {n: RUNS / n for n in ("disk-burst", "quiet-1")})
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def test_a_drop_clicked_is_zoomed_to_with_a_quarter_margin_and_three_panels_stay(pair: MainWindow, qtbot) -> None:
    w = pair
    it = QTreeWidgetItemIterator(w.drops.tree)
    while it.value() is not None and not it.value().data(0, DROP):
        it += 1
    item = it.value()
    assert item is not None
    run, rd = item.data(0, DROP)
    w.drops.on_click(item, 0)
    qtbot.wait(100)
    x0, x1 = (float(x) for x in w.session.x_of(run, np.array([rd.drop.start, rd.drop.end])))
    length = x1 - x0
    v0, v1 = w.chart.plots[0].vb.viewRange()[0]
    assert v0 == pytest.approx(x0 - max(length / 4, 1.0), abs=0.5)
    assert v1 == pytest.approx(x1 + max(length / 4, 1.0), abs=0.5)
    assert w.changed_dock.isVisible()
    shown = [p for p in w.chart.widgets if p.viewport().visibleRegion().boundingRect().height() >= MIN_PLOT_PX]
    assert len(shown) >= 3, [p.viewport().visibleRegion().boundingRect().height() for p in w.chart.widgets]
