"""Drop labels on the charts (issue 12): still there when zoomed into the drop, and legible with
five runs (no two labels overlap). Issue 24: in a lane above the top panel, never over its curves,
readable (>= 4.5:1) on both themes, a few of them with the rest counted."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF, Qt

from benchlens.app.figure import references
from benchlens.app.render import MANY_RUNS
from benchlens.app.ui.curves import ink
from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import comparing_all, library_of

RUNS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"
FIVE = ("disk-burst", "cpu-hogs", "read-lock", "small-pool", "quiet-1")


@pytest.fixture(scope="module")
def five_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Five recorded MariaDB + sysbench runs, four with injected disturbances (their drops)."""
    return library_of(tmp_path_factory.mktemp("five") / "five.sqlite", {name: RUNS / name for name in FIVE})


@pytest.fixture
def five(qtbot, five_db: Path, tmp_path: Path):
    yield from comparing_all(qtbot, five_db, tmp_path / "settings.ini")


def scene_rects(window: MainWindow) -> list[QRectF]:
    return [t.mapRectToScene(t.boundingRect()) for t in window.chart.drop_labels if t.isVisible()]


def global_rect(view, scene_rect: QRectF) -> QRectF:
    r = view.mapFromScene(scene_rect).boundingRect()
    return QRectF(view.viewport().mapToGlobal(r.topLeft()).toPointF(), r.size().toSizeF())


def inside_view(window: MainWindow) -> bool:
    """Every label shown lies in the lane: inside it, above the top panel's plot area."""
    chart = window.chart
    lane = chart.mark_labels.lane
    box = global_rect(lane, lane.getPlotItem().vb.sceneBoundingRect()).adjusted(-1, -1, 1, 1)
    plot_top = global_rect(chart.widgets[0], chart.plots[0].vb.sceneBoundingRect()).top()
    rects = [global_rect(lane, r) for r in scene_rects(window)]
    return all(box.contains(r) and r.bottom() <= plot_top for r in rects)


def test_five_runs_drop_labels_do_not_overlap_and_sit_in_view(five: MainWindow, qtbot) -> None:
    labels = five.chart.drop_labels
    assert len(labels) >= 4  # a disturbance in each of four runs, all about 30 s into the run
    rects = scene_rects(five)
    assert len(rects) == len(labels)  # whole runs shown: every label is in view
    for k, a in enumerate(rects):
        for b in rects[k + 1 :]:
            assert not a.intersects(b), "two drop labels overlap"
    assert inside_view(five)  # in the lane, not over the curves


def test_a_label_stays_in_view_when_zoomed_into_its_drop(five: MainWindow, qtbot) -> None:
    s, chart = five.session, five.chart
    run = next(r.id for r in s.runs() if r.name == "disk-burst")
    (first, *_) = s.drops(run)
    x0, x1 = (float(x) for x in s.x_of(run, np.array([first.drop.start, first.drop.end])))
    vb = chart.plots[0].vb
    mid = (x0 + x1) / 2
    vb.setXRange(mid - (x1 - x0) / 8, mid + (x1 - x0) / 8, padding=0)  # inside the drop: its start out of view
    qtbot.wait(20)
    shown = [t for t in chart.drop_labels if t.isVisible()]
    assert shown and inside_view(five)
    assert any(t.textItem.toPlainText().startswith("\u2212") or "%" in t.textItem.toPlainText() for t in shown)
    vb.setXRange(x1 + 10_000, x1 + 10_100, padding=0)  # far from every drop: no label
    qtbot.wait(20)
    assert not [t for t in chart.drop_labels if t.isVisible()]


def test_many_runs_do_not_hide_each_other(five: MainWindow) -> None:
    """Five runs overlaid: see-through lines, and in each panel the noisiest drawn under the others."""
    chart = five.chart
    items = [item for _, item, _ in chart.decimated]
    assert {item.opts["pen"].color().alpha() for item in items} == {round(255 / (5 / MANY_RUNS) ** 0.5)}
    for i in range(len(chart.plots)):
        mine = [item for panel, item, _ in chart.decimated if panel == i]
        by_z = sorted(mine, key=lambda it: it.zValue())
        inks = [ink(it.getData()[1]) for it in by_z]
        assert inks == sorted(inks, reverse=True)  # bottom (first drawn) is the noisiest


def test_innodb_flush_points_are_drawn_on_a_checkpoint_age_panel(five: MainWindow, qtbot) -> None:
    """The async and sync flush points of each run's InnoDB (app/analysis/innodb.py), as the export
    draws them: dashed lines in the run's colour, inside the panel's value range."""
    s, chart = five.session, five.chart
    run = next(r.id for r in s.runs() if r.name == "read-lock")
    (age,) = [r for r in s.available(run) if r.metric == "Innodb_checkpoint_age"]
    s.add_series([age])  # a checkpoint-age panel at the bottom
    qtbot.wait(20)
    want = references(s.rundata, [s.run(x) for x in s.comparison.runs], s.comparison.panels)
    assert {r.label for r in want} == {"async flush point", "sync flush point"}
    plot = chart.plots[-1]
    lines = [i for i in plot.items if isinstance(i, pg.InfiniteLine) and i.property("reference")]
    assert sorted((ln.value(), ln.property("reference")) for ln in lines) == sorted((r.y, r.label) for r in want)
    plot.vb.prepareForPaint()
    lo, hi = plot.vb.viewRange()[1]
    assert lo <= min(r.y for r in want) and max(r.y for r in want) <= hi  # the lines are in view
    assert all(ln.pen.style() == Qt.PenStyle.DashLine for ln in lines)
