"""Asking the window why (issue 14): Shift+drag across a span, "What changed here?" explains that
span against the run's steady state in the What changed tab (the same ranking as `benchlens
explain`); View ▸ B vs A ranks every series of the second run against the first."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.diff import diff_runs, series_by_quantity
from benchlens.app.analysis.window import explain_window
from benchlens.app.resources import demo_folders
from tests.conftest import FIXTURES
from tests.ui.conftest import close_window, comparing_all, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
RUN = FIXTURES / "diagnosis" / "three_disturbances"


@pytest.fixture
def recorded(qtbot, tmp_path: Path):
    baseline = next(f for f in demo_folders() if f.name == "baseline")
    db = library_of(tmp_path / "why.sqlite", {"three": RUN, "baseline": baseline})
    yield from comparing_all(qtbot, db, tmp_path / "settings.ini")


def test_what_changed_here_explains_a_dragged_span(recorded, qtbot) -> None:
    w, s = recorded, recorded.session
    run = next(r.id for r in s.runs() if r.name == "three")
    w.offset_run.setCurrentIndex(w.offset_run.findData(run))
    truth = dict(
        line.split("\t", 1)
        for line in (FIXTURES / "diagnosis" / "three_disturbances.truth.tsv").read_text().splitlines()
    )
    start, end = (float(x) for x in truth["cpu-system"].split("\t"))
    x0, x1 = (float(x) for x in s.x_of(run, np.array([start, end])))
    w.chart.mark(x0, x0, False)  # a Shift+drag across the span, as the view box reports it
    w.chart.mark(x0, x1, True)
    actions = {a.text(): a for a in w.last_menu.actions()}
    assert set(actions) == {"What changed here?", "Add a note…"}
    actions["What changed here?"].trigger()
    assert w.changed_dock.isVisible()
    rows = w.changed.rows()
    want = explain_window(s.rundata, run, (s.t_of(run, x0), s.t_of(run, x1)), "absolute", top=20)
    assert [r[0].split(" ", 1)[1] for r in rows] == [c.ref.spec() for c in want.explain]  # as `benchlens explain` ranks
    assert rows and "three" in w.changed.title.text() and "of its steady level" in w.changed.title.text()
    w.last_menu.close()


def test_b_vs_a_ranks_every_series_of_two_runs(recorded) -> None:
    w, s = recorded, recorded.session
    a, b = s.comparison.runs
    w.compare_runs()
    rows = w.changed.rows()
    want = diff_runs(s.rundata, a, b)
    settings = len(want.config.changed) + len(want.config.only)
    assert [r[0] for r in rows[:settings]] == [d.name for d in want.config.changed + want.config.only]
    assert [r[0] for r in rows[settings:]] == [
        d.ref.spec() for d, _ in series_by_quantity(want.series)
    ]  # one per quantity
    assert "mean throughput: A " in w.changed.title.text()
    assert len(rows) > len({ref for p in s.comparison.panels for ref in p.refs})  # every series, not only the plotted
    headers = [w.changed.table.horizontalHeaderItem(k).text() for k in range(w.changed.table.columnCount())]
    assert headers[:5] == ["series", "unit", "A", "B", "B vs A"] and "A per trx" in headers


def test_b_vs_a_lists_the_settings_that_differ_first(qtbot, tmp_path: Path) -> None:
    """Two recorded runs that differ by innodb_flush_log_at_trx_commit (1 and 2): the setting is
    the first row of B vs A, before every series."""
    names = ("config_trx_commit_1", "config_trx_commit_2")
    db = library_of(tmp_path / "config.sqlite", {name: FIXTURES / "runs" / name for name in names})
    w = laptop(qtbot, db, tmp_path / "settings.ini")
    try:
        w.session.add_runs([r.id for r in sorted(w.session.runs(), key=lambda r: r.name)])
        w.compare_runs()
        rows = w.changed.rows()
        assert rows[0][:4] == ["innodb_flush_log_at_trx_commit", "setting", "1", "2"]
        settings = [r for r in rows if r[1].startswith("setting")]
        assert rows[: len(settings)] == settings and len(rows) > len(settings)  # then the series
    finally:
        close_window(w)
