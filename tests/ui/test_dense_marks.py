"""Many drops in view (issue 24 item 13): a 4-hour log with a drop every 75 s shaded ~190 bands
with edges across every panel, a barcode over the level it was meant to show. Beyond one per
BAND_PX of the panels' width each drop is a tick along the top of the panels, in the window and
the export alike; a comparison with a few drops keeps its bands, and so does a zoom to a few."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pyqtgraph as pg
import pytest

from benchlens.app.cli import main
from benchlens.app.figure import RUG_SPAN
from tests.ui.conftest import close_window, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")
RUNS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality" / "runs"
SVG = "{http://www.w3.org/2000/svg}"


def cycled(folder: Path, run: str = "cpu-hogs", seconds: int = 4 * 3600) -> Path:
    """A recorded run's 1-s sysbench reports (a CPU hog's drop in each 75 s) cycled to 4 hours."""
    log = (RUNS / run / "bench.log").read_text().splitlines()
    reports = [m.group(1) for line in log if (m := re.match(r"\[ \d+s \] (.*)", line))]
    lines = ["sysbench 1.0.20", "Report intermediate results every 1 second(s)", "Threads started!", ""]
    lines += [f"[ {k + 1}s ] {reports[k % len(reports)]}" for k in range(seconds)]
    folder.mkdir()
    (folder / "bench.log").write_text("\n".join(lines) + "\n")
    return folder


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("dense")
    folders = {"long": cycled(tmp / "long"), "quiet-1": RUNS / "quiet-1", "cpu-hogs": RUNS / "cpu-hogs"}
    return library_of(tmp / "lib.sqlite", folders)


def shades(svg: Path) -> list[float]:
    """The heights of the see-through rectangles of the SVG (bands, ticks, strips)."""
    out = []
    for g in ET.parse(svg).iter(f"{SVG}g"):
        if float(g.get("fill-opacity", "1")) < 1 and g.get("fill", "none") != "none":
            out += [float(r.get("height", "0")) for r in g.iter(f"{SVG}rect")]
    return out


def test_the_export_of_many_drops_ticks_them_along_the_top(db: Path, tmp_path: Path, qapp) -> None:
    long, pair = tmp_path / "long.svg", tmp_path / "pair.svg"
    assert main(["export", "--run", "long", "--out", str(long), "--db", str(db)]) == 0
    assert main(["export", "--run", "quiet-1", "--run", "cpu-hogs", "--out", str(pair), "--db", str(db)]) == 0
    ticks = shades(long)
    assert len(ticks) > 150  # every drop still shows where it is
    assert max(ticks) < 12  # a tick, no band across the panel
    assert max(shades(pair)) > 60  # one drop: its band across the panel


def test_the_window_ticks_many_drops_along_the_top_and_shades_a_few(db: Path, qtbot, tmp_path: Path) -> None:
    for names, rug in ((["long"], True), (["quiet-1", "cpu-hogs"], False)):
        w = laptop(qtbot, db, tmp_path / "settings.ini")
        try:
            w.session.add_runs([r.id for r in w.session.runs() if r.name in names])
            qtbot.wait(50)
            bands = [it for it in w.chart.plots[0].items if isinstance(it, pg.LinearRegionItem) and it.property("run")]
            bands = [b for b in bands if b.property("cause") is None]
            assert bands
            if rug:
                assert len(bands) > 150
                assert all(b.span == (1 - RUG_SPAN, 1.0) for b in bands)
                w.chart.zoom_to(3600, 3750)  # two or three drops in view: bands again
                qtbot.waitUntil(lambda shown=bands: all(b.span == (0.0, 1.0) for b in shown), timeout=3000)
                w.chart.zoom_to(0, 4 * 3600)
                qtbot.waitUntil(lambda shown=bands: all(b.span == (1 - RUG_SPAN, 1.0) for b in shown), timeout=3000)
            else:
                assert all(b.span == (0, 1) or b.span == (0.0, 1.0) for b in bands)
        finally:
            close_window(w)
