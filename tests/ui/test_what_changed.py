"""What changed and the drops list as a performance engineer reads them (issue 24): one row per
quantity with the collectors that saw it, the series that proves the verdict first, effects of a
flat series in its units, and numbers in one unit chosen for the values, never e-notation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchlens.app.analysis.explain import quantity
from benchlens.app.analysis.verdict import finding
from benchlens.app.ui.drops_view import DROP
from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import close_window, comparing_all, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
RUNS = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs"
E_NOTATION = re.compile(r"\d[eE][+-]?\d")


@pytest.fixture
def recorded(qtbot, tmp_path: Path):
    """A row-lock hold (40 s, bursty workload) and a disk writer (40 s), recorded with every collector."""
    names = ("row-lock-long-bursty", "disk-writers-long-smooth")
    db = library_of(tmp_path / "lib.sqlite", {n: RUNS / n for n in names})
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def drop_items(w: MainWindow):
    tree = w.drops.tree
    stack = [tree.topLevelItem(k) for k in range(tree.topLevelItemCount())]
    while stack:
        item = stack.pop()
        stack += [item.child(j) for j in range(item.childCount())]
        yield item


def test_a_row_lock_drop_shows_the_lock_series_first_and_each_quantity_once(recorded: MainWindow) -> None:
    """The row-lock drop's table was the CPU's %idle of three tools and no lock series; the verdict
    ("sessions stuck on row locks") is proven by the row-lock waits in progress: they come first."""
    w, s = recorded, recorded.session
    run = next(r.id for r in s.runs() if r.name == "row-lock-long-bursty")
    rd = max(s.findings(run).drops, key=lambda d: d.drop.end - d.drop.start)
    key = finding(rd.explain).key
    assert key is not None and key.klass == "locks"
    w.changed.show_drop(run, rd)
    rows = w.changed.rows()
    assert rows[0][0].endswith(key.ref.spec())
    specs = [r[0].split(" ", 1)[1] for r in rows]
    assert len({quantity(next(c.ref for c in [key, *rd.explain] if c.ref.spec() == sp)) for sp in specs}) == len(rows)
    idle = next(r for r in rows if "%idle" in r[0] or ":id" in r[0])
    assert len(idle[5].split(", ")) >= 2  # the tools that saw the CPUs go idle, on one row


def test_the_drops_list_shows_what_changed_in_the_same_rows(recorded: MainWindow) -> None:
    """Under a drop the list gave the analysis' raw ranking (the CPU hog's iostat w_await above
    its %usr, %idle of three tools): the rows of What changed, one per quantity, the proof first."""
    w = recorded
    for item in drop_items(w):
        data = item.data(0, DROP)
        if not data:
            continue
        run, rd = data
        w.changed.show_drop(run, rd)
        table = [r[0].split(" ", 1)[1] for r in w.changed.rows()]
        listed = [item.child(j).text(0).split(" ")[1] for j in range(item.childCount())]
        assert listed == table


def test_effects_are_sigmas_or_units_and_no_number_is_in_e_notation(recorded: MainWindow) -> None:
    """`+10,993,500σ` for a series flat before the drop, `9.541e+04` in the drops tree."""
    w, s = recorded, recorded.session
    texts = [item.text(k) for item in drop_items(w) for k in range(2)]
    assert texts and not [t for t in texts if E_NOTATION.search(t)]
    for r in s.comparison.runs:
        for rd in s.findings(r).drops:
            w.changed.show_drop(r, rd)
            for row in w.changed.rows():
                assert not [c for c in row if E_NOTATION.search(c)]
                sigmas = re.fullmatch(r"[+-][\d.,]+σ", row[4])
                assert row[4] and (sigmas is None or float(row[4][1:-1].replace(",", "")) <= 100)


def readable_panels(w: MainWindow) -> int:
    """Panels whose plot area shows at least MIN_PLOT_PX of itself in the column's viewport."""
    from benchlens.app.ui.panel_column import MIN_PLOT_PX

    viewport = w.chart.column_scroll.viewport()
    shown = 0
    for widget, plot in zip(w.chart.widgets, w.chart.plots, strict=True):
        top = widget.mapTo(viewport, widget.mapFromScene(plot.vb.sceneBoundingRect().topLeft())).y()
        visible = min(top + plot.vb.height(), viewport.height()) - max(top, 0)
        shown += visible >= MIN_PLOT_PX - 1
    return shown


def test_the_dock_leaves_three_panels_readable_on_a_laptop(recorded: MainWindow, qtbot) -> None:
    w, s = recorded, recorded.session
    run = next(r.id for r in s.runs() if r.name == "row-lock-long-bursty")
    w.show_changed(run, s.findings(run).drops[0])
    qtbot.wait(50)
    assert w.changed_dock.isVisible() and w.changed.table.rowCount() > 0
    assert readable_panels(w) >= 3


def test_the_window_says_the_gap_its_throughput_axis_magnifies(qtbot, tmp_path) -> None:
    names = ("pair-flushlog-1", "pair-flushlog-2")
    w = laptop(qtbot, library_of(tmp_path / "lib.sqlite", {n: RUNS / n for n in names}), tmp_path / "s.ini")
    try:
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.wait(50)
        assert "means within" in w.chart.plots[0].titleLabel.text
    finally:
        close_window(w)


def test_b_vs_a_keeps_its_values_on_a_laptop_screen(qtbot, tmp_path) -> None:
    """The settings' command line row made the series column ~2,000 px wide: A, B and B vs A were
    off the 1366 px screen."""
    names = ("pair-flushlog-1", "pair-flushlog-2")
    w = laptop(qtbot, library_of(tmp_path / "lib.sqlite", {n: RUNS / n for n in names}), tmp_path / "s.ini")
    try:
        w.session.add_runs([r.id for r in sorted(w.session.runs(), key=lambda r: r.name)])
        w.compare_runs()
        qtbot.wait(50)
        table = w.changed.table
        change = [table.horizontalHeaderItem(k).text() for k in range(table.columnCount())].index("B vs A")
        assert table.columnViewportPosition(change) + table.columnWidth(change) <= table.viewport().width()
        assert any(len(table.item(r, 2).toolTip()) > 200 for r in range(table.rowCount()))  # the whole value
    finally:
        close_window(w)


def test_on_a_tall_screen_the_dock_leaves_four_panels(qtbot, tmp_path) -> None:
    names = ("row-lock-long-bursty",)
    db = library_of(tmp_path / "lib.sqlite", {n: RUNS / n for n in names})
    w = laptop(qtbot, db, tmp_path / "s.ini", (1920, 1080))
    try:
        s = w.session
        (run,) = [r.id for r in s.runs()]
        s.add_runs([run])
        w.show_changed(run, s.findings(run).drops[0])
        qtbot.wait(50)
        assert readable_panels(w) >= 4 and w.changed.table.rowCount() > 0
    finally:
        close_window(w)
