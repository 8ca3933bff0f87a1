"""Rates made of counter snapshots (SHOW GLOBAL STATUS every 2 s) cover the interval between two
snapshots; drawn as a point at the later one, a row-lock wait showed after the lock (issue 24).
They are drawn as steps over their interval, in the window and the export; the data (readout,
CSV) keeps the rate at the snapshot's time."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.decimate import as_steps
from benchlens.app.analysis.layout import Panel
from benchlens.app.model import SeriesRef
from tests.ui.conftest import close_window, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
RUN = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs" / "row-lock-long-bursty"
WAITS = SeriesRef("global_status", "Innodb_row_lock_time")
CPU = SeriesRef("vmstat", "us")


def test_a_rate_covers_the_interval_before_its_snapshot() -> None:
    xs, ys = as_steps(np.array([10.0, 12.0, 14.0]), np.array([0.0, 8000.0, 0.0]))
    assert xs.tolist() == [8.0, 10.0, 10.0, 12.0, 12.0, 14.0] and ys.tolist() == [0, 0, 8000, 8000, 0, 0]


def test_snapshot_rates_are_drawn_as_steps(qtbot, tmp_path: Path) -> None:
    db = library_of(tmp_path / "lock.sqlite", {"lock": RUN})
    w = laptop(qtbot, db, tmp_path / "settings.ini")
    try:
        s = w.session
        (run,) = [r.id for r in s.runs()]
        s.add_runs([run])
        s.add_panel(Panel("Row lock time", [WAITS]))
        s.add_panel(Panel("CPU user", [CPU]))
        qtbot.wait(50)
        drawn = {c.ref: (item, c) for (_, item, _), c in zip(w.chart.decimated, w.chart.curves, strict=True)}
        item, curve = drawn[WAITS]
        xs, ys = item.getData()
        k = int(np.nanargmax(curve.y))  # the lock's waits, counted in the snapshot after it
        at = np.flatnonzero(ys == curve.y[k])
        assert xs[at].min() == pytest.approx(curve.x[k - 1]) and xs[at].max() == pytest.approx(curve.x[k])
        _, v = s.data(run, WAITS)
        assert np.array_equal(curve.y, v)  # the readout reads the rate at its snapshot
        item, curve = drawn[CPU]
        assert len(item.getData()[0]) <= len(curve.x) + 2  # a sampling tool's points stay points
    finally:
        close_window(w)


def test_the_export_draws_the_same_steps(tmp_path: Path) -> None:
    """The export's SVG polyline of the row-lock time: a level segment per 2 s snapshot."""
    import itertools
    import re

    from benchlens.app.cli import main

    db = library_of(tmp_path / "lock.sqlite", {"lock": RUN})
    out = tmp_path / "lock.svg"
    assert main(["export", "--run", "lock", "--panel", WAITS.spec(), "--out", str(out), "--db", str(db)]) == 0
    lines = [m.group(1).split() for m in re.finditer(r'<polyline[^>]*points="([^"]*)"', out.read_text())]
    (points,) = [[tuple(map(float, p.split(","))) for p in pts] for pts in lines if len(pts) > 10]
    level = sum(a[1] == b[1] and b[0] > a[0] for a, b in itertools.pairwise(points))
    assert level >= len(points) // 2 - 1  # every sample a step: its interval, then the next
