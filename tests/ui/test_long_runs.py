"""A long run (issue 24): a 4-hour sysbench log at 1 s drew each panel as a solid band from the
floor to the peaks (the min and max of ~14 samples per pixel). Beyond PYRAMID.level_from samples
per pixel the level (bin medians) is drawn over a light min/max band, in the window and the
export alike; zoomed in, the curve is itself again."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.decimate import PYRAMID, MinMaxPyramid
from tests.ui.conftest import close_window, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
QUIET = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs" / "quiet-bursty" / "bench.log"


def four_hours(folder: Path) -> Path:
    """The recorded quiet bursty run's 75 one-second reports, cycled to 4 hours."""
    reports = [m.group(1) for line in QUIET.read_text().splitlines() if (m := re.match(r"\[ \d+s \] (.*)", line))]
    lines = ["sysbench 1.0.20", "Report intermediate results every 1 second(s)", "Threads started!", ""]
    lines += [f"[ {k + 1}s ] {reports[k % len(reports)]}" for k in range(4 * 3600)]
    folder.mkdir()
    (folder / "bench.log").write_text("\n".join(lines) + "\n")
    return folder


def test_the_level_of_a_dense_view_is_the_median_under_the_band() -> None:
    rng = np.random.default_rng(7)
    x = np.arange(4 * 3600.0)
    y = 250 + rng.normal(0, 40, len(x))
    y[::90] = 0.0  # a collapse every 90 s
    p = MinMaxPyramid(x, y)
    xs, level = p.level(0, len(x), 1000)
    _, band = p.view(0, len(x), 1000)
    assert band.min() == 0.0 and np.median(level) == pytest.approx(250, rel=0.05)
    assert np.all(np.diff(xs) > 0) and len(xs) <= 1000
    assert p.level(0, 2000, 1000) is None  # 2 samples per pixel: the curve itself reads
    assert PYRAMID.level_from * 1000 < len(x)


def test_a_four_hour_run_draws_its_level_over_a_light_band(qtbot, tmp_path: Path) -> None:
    db = library_of(tmp_path / "long.sqlite", {"long": four_hours(tmp_path / "long")})
    w = laptop(qtbot, db, tmp_path / "settings.ini")
    try:
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.wait(50)
        chart = w.chart
        bands = [(item, chart.decimated.levels.get(id(item))) for panel, item, _ in chart.decimated if panel == 0]
        (band, level), *_ = bands
        assert level is not None and level.isVisible()
        faded = band.opts["pen"].color()  # light: most of the way to the background
        assert faded.lightnessF() > 0.75
        ys = level.getData()[1]
        assert 200 < float(np.nanmedian(ys)) < 450  # the run's level, 250-430 tps
        chart.plots[0].vb.setXRange(3600, 3700, padding=0)  # 100 s: the curve itself again
        qtbot.waitUntil(lambda: not level.isVisible(), timeout=2000)
        assert band.opts["pen"].color().lightnessF() < 0.75
    finally:
        close_window(w)
