"""What the throughput says, drawn (issues 12 and 14): recurring dips are one label over their dips'
bands and one item in the drops list with every dip under it; a latency rise while the throughput
held is a hatched band with its own label; the export draws the same marks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import Qt

from benchlens.app.figure import figure_of
from tests.ui.conftest import comparing_all, library_of


def periodic_folder(tmp_path: Path) -> Path:
    """A sysbench log of 1,000 one-second reports with a 6-10 s dip to -45 % every 25 s."""
    rng = np.random.default_rng(6)
    tps = 1000 + rng.normal(0, 30, 1000)
    for k, s in enumerate(range(50, 950, 25)):
        tps[s : s + 6 + k % 5] *= 0.55
    lines = [
        f"[ {k + 1}s ] thds: 16 tps: {v:.2f} qps: {v * 20:.2f} (r/w/o: {v * 14:.2f}/{v * 4:.2f}/{v * 2:.2f}) "
        f"lat (ms,95%): {16000 / v:.2f} err/s: 0.00 reconn/s: 0.00"
        for k, v in enumerate(tps)
    ]
    folder = tmp_path / "periodic"
    folder.mkdir()
    (folder / "sysbench.log").write_text("Number of threads: 16\n\n" + "\n".join(lines) + "\n")
    return folder


@pytest.fixture
def findings_window(qtbot, tmp_path: Path):
    # the rated run: two disk writers from 40 s to the end, its p95 x4-6 while its throughput held
    rated = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs" / "disk-writers-end-rated"
    folders = {"periodic": periodic_folder(tmp_path), "rated": rated}
    yield from comparing_all(qtbot, library_of(tmp_path / "findings.sqlite", folders), tmp_path / "settings.ini")


def bands(window, run: int) -> list[pg.LinearRegionItem]:
    return [i for i in window.chart.plots[0].items if isinstance(i, pg.LinearRegionItem) and i.property("run") == run]


def test_recurring_dips_are_one_label_and_one_item_with_every_dip(findings_window) -> None:
    w, s = findings_window, findings_window.session
    run = next(r.id for r in s.runs() if r.name == "periodic")
    found = s.findings(run)
    (group,) = found.recurring
    assert len(group.members) == 36
    labels = [t.textItem.toPlainText() for t in w.chart.drop_labels]
    assert labels.count(group.label()) == 1  # one label for 36 dips, not 36 labels
    every = [s.findings(r.id) for r in s.runs()]
    assert len(labels) == sum(len(f.singles()) + len(f.rises) + len(f.recurring) for f in every)
    assert len(bands(w, run)) == 36 + len(found.singles())  # each dip keeps its band
    tree = w.drops.tree
    top = next(
        tree.topLevelItem(k) for k in range(tree.topLevelItemCount()) if tree.topLevelItem(k).text(0) == "periodic"
    )
    (item,) = [top.child(j) for j in range(top.childCount()) if "periodic stalls" in top.child(j).text(0)]
    assert item.childCount() == 36 and item.child(0).data(0, Qt.ItemDataRole.UserRole)  # each dip explainable
    fig = figure_of(s.rundata, s.comparison)
    mine = [m for m in fig.marks if m.run == run]
    assert [m.kind for m in mine].count("recurring") == 1 and [m.kind for m in mine].count("dip") == 36


def test_a_latency_rise_is_a_hatched_band_with_its_own_label(findings_window) -> None:
    w, s = findings_window, findings_window.session
    run = next(r.id for r in s.runs() if r.name == "rated")
    rises = s.findings(run).rises
    assert rises  # the recorded disk writers the throughput rode out
    hatched = [b for b in bands(w, run) if b.brush.style() == Qt.BrushStyle.BDiagPattern]
    assert len(hatched) == len(rises)
    labels = [t.textItem.toPlainText() for t in w.chart.drop_labels]
    assert all(rd.drop.label() in labels for rd in rises) and all("latency" in rd.drop.label() for rd in rises)
    fig = figure_of(s.rundata, s.comparison)
    assert len([m for m in fig.marks if m.run == run and m.kind == "rise"]) == len(rises)


def test_a_cause_that_outlasts_its_drop_is_a_strip_at_every_panels_foot(qtbot, tmp_path: Path) -> None:
    """Two disk writers ran to the end of bench/drop_quality's disk-writers-end-bursty while the
    throughput came back to ~80 % after 25 s: the drop's band ends at 65 s, the strip of its
    cause's window runs to the end, on every panel and in the export, the verdict's words its
    tooltip."""
    runs = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs"
    db = library_of(tmp_path / "cause.sqlite", {"writers": runs / "disk-writers-end-bursty"})
    for w in comparing_all(qtbot, db, tmp_path / "settings.ini"):
        s = w.session
        run = s.runs()[0].id
        (rd,) = s.findings(run).singles()
        assert rd.cause is not None and rd.cause.end - rd.drop.end > 20
        x0, x1 = (float(x) for x in s.x_of(run, np.array([rd.cause.start, rd.cause.end])))
        for plot in w.chart.plots:
            (strip,) = [i for i in plot.items if isinstance(i, pg.LinearRegionItem) and i.property("cause")]
            assert strip.getRegion() == pytest.approx((x0, x1)) and strip.toolTip() == rd.cause.said(rd.drop)
        assert rd.verdict().endswith(rd.cause.said(rd.drop))
        fig = figure_of(s.rundata, s.comparison)
        (mark,) = [m for m in fig.marks if m.kind == "cause"]
        assert (mark.x0, mark.x1) == pytest.approx((x0, x1)) and mark.label == ""


def test_the_window_shows_the_database_panel_of_the_verdict(qtbot, tmp_path: Path) -> None:
    """A real InnoDB flushing stall (bench/drop_quality's flushing-long-writes-2): the window's
    default layout shows the checkpoint age, where the history list or the top waits moved more."""
    runs = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs"
    db = library_of(tmp_path / "flush.sqlite", {"flush": runs / "flushing-long-writes-2"})
    for w in comparing_all(qtbot, db, tmp_path / "settings.ini"):
        titles = [p.title for p in w.session.comparison.panels]
        assert "Checkpoint age" in titles and "History list length" not in titles, titles
        assert figure_of(w.session.rundata, w.session.comparison).panels == w.session.comparison.panels


def test_a_drop_in_phases_is_one_band_and_one_item_with_each_phase_under_it(qtbot, tmp_path: Path) -> None:
    """Held-out add-index-long-hot: another client's index build, then its metadata lock, with no
    second back at the baseline: one drop (one band, one label), its phases under its item, each
    a drop to click and explain."""
    run_dir = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs" / "add-index-long-hot"
    db = library_of(tmp_path / "phases.sqlite", {"add-index": run_dir})
    for w in comparing_all(qtbot, db, tmp_path / "settings.ini"):
        run = w.session.runs()[0].id
        (rd,) = w.session.findings(run).drops
        spans = [
            tuple(round(float(x), 3) for x in w.session.x_of(run, np.array([d.start, d.end])))
            for d in (rd.drop, *(p.drop for p in rd.phases))
        ]
        regions = [tuple(round(float(x), 3) for x in b.getRegion()) for b in bands(w, run)]
        assert len(rd.phases) == 2 and regions.count(spans[0]) == 1 and not set(spans[1:]) & set(regions), regions
        assert [t.textItem.toPlainText() for t in w.chart.drop_labels] == [rd.drop.label()]
        top = w.drops.tree.topLevelItem(0)
        (item,) = [top.child(j) for j in range(top.childCount()) if top.child(j).data(0, Qt.ItemDataRole.UserRole)]
        under = [item.child(j).data(0, Qt.ItemDataRole.UserRole) for j in range(item.childCount())]
        assert [u[1] for u in under if u] == list(rd.phases)
