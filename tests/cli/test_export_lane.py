"""Drop labels in the export (issue 24 item 7, issue 23): in a lane above the panels (they were
drawn over the top panel's curves), at the figure's text size (the blog preset's were ~8-10 px),
in their run's colour made readable (>= 4.5:1 on the background: orange on orange before), a few
of them with the rest summarised. On the recorded runs of bench/drop_quality."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from benchlens.app.cli import main
from benchlens.app.ingest import Options, import_path
from benchlens.app.lane import LANE_MOST, LaneLabel, bars, lane_layout
from benchlens.app.palette import contrast
from benchlens.app.render import PUBLICATION, SCREEN
from benchlens.app.store import Library
from tests.conftest import ROOT

RUNS = ROOT / "bench" / "drop_quality" / "runs"
FIVE = ("disk-burst", "cpu-hogs", "read-lock", "small-pool", "quiet-1")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lane") / "lib.sqlite"
    with Library(path) as lib:
        for name in FIVE:
            import_path(lib, RUNS / name, Options(name=name))
    return path


def texts(svg: Path) -> list[tuple[float, float, str, str]]:
    """(y, font size, fill, text) of every text of the SVG."""
    out = []
    for t in ET.parse(svg).iter(f"{SVG}text"):
        out.append((float(t.get("y", "nan")), float(t.get("font-size", "0")), t.get("fill", ""), "".join(t.itertext())))
    return out


@pytest.mark.parametrize("theme", ["publication", "screen"])
def test_blog_labels_sit_above_the_panels_legible_and_readable(db: Path, tmp_path: Path, qapp, theme: str) -> None:
    out = tmp_path / "five.svg"
    runs = [a for name in FIVE for a in ("--run", name)]
    assert main(["export", *runs, "--preset", "blog", "--theme", theme, "--out", str(out), "--db", str(db)]) == 0
    found = texts(out)
    labels = [t for t in found if t[3].startswith("\u2212")]
    heading = next(t for t in found if t[3].startswith("Throughput"))
    assert len(labels) >= 4  # a disturbance in four of the runs, all about 30 s in
    background = {"publication": PUBLICATION, "screen": SCREEN}[theme].background
    for y, size, fill, _ in labels:
        assert y < heading[0] - size  # above the top panel's heading: never over its curves
        assert size >= 12  # the figure's text size at blog size, not its smallest
        assert contrast(fill, background) >= 4.5


def test_a_few_labels_show_and_the_rest_are_counted() -> None:
    many = [LaneLabel(10.0 * k, 10.0 * k + 40, 60.0, 40.0 - k) for k in range(20)]
    placed, hidden = lane_layout(many, 0.0, 600.0, 110.0)
    assert len(placed) <= LANE_MOST and hidden == 20 - len(placed) and hidden >= 14
    rows: dict[int, list[tuple[float, float]]] = {}
    for pl in placed:
        rows.setdefault(pl.row, []).append((pl.left, pl.left + 60.0))
        assert pl.left <= many[pl.index].x1  # it starts over its own span
    last = max(rows)
    for row, boxes in rows.items():
        boxes.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(boxes))  # no overlap
        assert row != last or boxes[-1][1] <= 600.0 - 110.0  # room for "+14 more drops"
    spans = bars(many, placed, 0.0, 600.0)
    for row in rows:
        mine = sorted(s for s, pl in zip(spans, placed, strict=True) if pl.row == row)
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(mine))  # bars never cover each other
