"""`benchlens export` for a post (issue 12): the blog preset's panels, panel titles from the
command line, SVG sized in px, colour for the run and line style for the metric in every theme,
units said once. On the real runs of bench/drop_quality (a disk burst and CPU hogs)."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from benchlens.app.analysis.layout import BLOG_PANELS, Panel, blog_panels, parse_panel
from benchlens.app.cli import main
from benchlens.app.figure import build
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.cli.test_export import STORY, svg_texts
from tests.conftest import ROOT

RUNS = ROOT / "bench" / "drop_quality" / "runs"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("blog") / "lib.sqlite"
    with Library(path) as lib:
        for name in ("disk-burst", "cpu-hogs"):
            import_path(lib, RUNS / name)
    return path


def export(db: Path, out: Path, *args: str) -> None:
    assert main(["export", "--run", "disk-burst", "--run", "cpu-hogs", *args, "--out", str(out), "--db", str(db)]) == 0


def columns(path: Path) -> list[str]:
    """The series of an exported CSV, in panel order."""
    header = next(csv.reader(path.open()))
    return list(dict.fromkeys(h.split(" ", 1)[1].rsplit(" (", 1)[0] for h in header[1:]))


def test_blog_preset_is_the_story_in_four_panels(db: Path, tmp_path: Path) -> None:
    """Throughput and latency, then the resources the drops are explained by: CPU (the hogs) and
    the disk (the burst); the database panel of the default layout is left out."""
    export(db, tmp_path / "all.csv", "--preset", "all")
    export(db, tmp_path / "blog.csv", "--preset", "blog")
    default, blog = columns(tmp_path / "all.csv"), columns(tmp_path / "blog.csv")
    assert blog[:2] == ["sysbench:tps", "sysbench:lat_ms:95"]
    assert {"vmstat:us", "iostat:%util:vda"} <= set(blog)
    dropped = [s for s in default if s not in blog]
    assert dropped and all(s.startswith(("innodb_status:", "perfschema:", "innodb_mutex:")) for s in dropped)
    export(db, tmp_path / "blog.png", "--preset", "blog")
    from PySide6.QtGui import QImage

    assert QImage(str(tmp_path / "blog.png")).size().toTuple() == (1200, 675)


def test_blog_panels_rank_what_explains_the_drops() -> None:
    def spread(ref: SeriesRef) -> float:
        return {"checkpoint_age": 0.9}.get(ref.metric, 0.1)

    def titles(explains: dict[str, float]) -> list[str]:
        return [p.title for p in blog_panels(STORY, None, spread, lambda c: explains.get(c, 0.0))]

    assert len(titles({})) == BLOG_PANELS
    # story order, the database panel that explains best right under throughput and latency
    assert titles({"redo": 3.0, "disk": 1.0})[2:] == ["Checkpoint age", "Disk sda: %util"]
    assert titles({"redo": 1.0, "disk": 3.0})[2:] == ["Disk sda: %util", "Checkpoint age"]
    assert titles({"cpu": 2.0})[2:] == ["CPU (%)", "Checkpoint age"]  # spread breaks the tie
    # the database panel is the one that shows what explains: a purge lag's history list
    assert titles({"cpu": 2.0, "purge": 1.0})[2:] == ["CPU (%)", "History list length"]
    no_benchmark = [r for r in STORY if r.format != "sysbench"]
    assert [p.title for p in blog_panels(no_benchmark)] == ["CPU (%)", "Disk sda: %util", "Checkpoint age"]


def test_panel_title_from_the_command_line() -> None:
    assert parse_panel("Writes=iostat:w/s:vda+iostat:%util:vda").title == "Writes"
    assert parse_panel("Writes=iostat:w/s:vda").refs == [SeriesRef("iostat", "w/s", "vda")]
    assert parse_panel("Disk vda: IOPS=iostat:w/s:vda").title == "Disk vda: IOPS"
    assert parse_panel("sysbench:tps").title == "sysbench:tps"
    # a SPEC holding '=' (pidstat -l's command line as entity) is one series, titled or not
    cmd = SeriesRef("pidstat", "%CPU", "mysqld --basedir=/usr")
    assert parse_panel("pidstat:%CPU:mysqld --basedir=/usr").refs == [cmd]
    assert parse_panel("mysqld CPU=pidstat:%CPU:mysqld --basedir=/usr") == Panel("mysqld CPU", [cmd])
    with pytest.raises(ValueError, match="title"):
        parse_panel("=sysbench:tps")
    with pytest.raises(ValueError, match="SOURCE:METRIC"):
        parse_panel("TPS=tps")


def test_cli_panel_title_is_drawn(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "titled.svg"
    export(db, out, "--panel", "Transactions=sysbench:tps", "--panel", "Disk vda=iostat:w/s:vda+iostat:%util:vda")
    texts = [t for _, t in svg_texts(out)]
    assert "Transactions (tps)" in texts and any(t.startswith("Disk vda") for t in texts)
    assert main(["export", "--run", "cpu-hogs", "--panel", "=sysbench:tps", "--out", str(out), "--db", str(db)]) == 1
    assert "title" in capsys.readouterr().err


def test_svg_is_sized_in_px(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "sized.svg"
    export(db, out, "--size", "900x500")
    root = ET.parse(out).getroot()
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("900px", "500px", "0 0 900 500")


def test_latency_ticks_and_title_say_one_unit(db: Path, tmp_path: Path) -> None:
    """The latency panel (stored in ms) was titled "(ms)" over ticks reading seconds; now the
    ticks say the unit and the title none."""
    out = tmp_path / "lat.svg"
    export(db, out, "--preset", "blog")
    texts = [t for _, t in svg_texts(out)]
    title = next(t for t in texts if t.startswith("Latency"))
    assert "ms" not in title and "(" not in title
    assert "80 ms" in texts


@pytest.mark.parametrize("theme", ["publication", "screen"])
def test_colour_is_the_run_and_style_the_metric(db: Path, theme: str, qapp) -> None:
    """Every theme: one colour per run in all panels, one line style per metric in a panel, the
    same as the window (app/ui/curves.py: pen colour of the run, STYLES[j] of the series)."""
    from PySide6.QtGui import QImage, QPainter

    from benchlens.app import render

    pens: list[tuple[str, str]] = []

    class Spy(QPainter):
        def drawLines(self, *a: object) -> None:
            pens.append((self.pen().color().name(), self.pen().style().name))
            super().drawLines(*a)

    panels = [parse_panel("sysbench:tps"), parse_panel("vmstat:us+vmstat:sy")]
    with Library(db) as lib:
        fig = build(LibraryRunData(lib), [1, 2], panels)
    img = QImage(600, 400, QImage.Format.Format_ARGB32_Premultiplied)
    p = Spy(img)
    render.draw(fig, p, 600, 400, render.THEMES[theme])
    p.end()
    tps, cpu = pens[:2], pens[2:]
    assert len(cpu) == 4 and {s for _, s in tps} == {"SolidLine"}
    assert len({c for c, _ in tps}) == 2 and {c for c, _ in tps} == {c for c, _ in cpu}
    by_colour = {c: sorted(s for cc, s in cpu if cc == c) for c, _ in tps}
    assert all(styles == ["DashLine", "SolidLine"] for styles in by_colour.values())
