"""Export: the figure as PNG/SVG/PDF through one QPainter renderer, the plotted data as CSV,
and `benchlens export` headless."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.layout import Panel, parse_panel
from benchlens.app.cli import main
from benchlens.app.figure import build, write_csv
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES, run_cli, stalled_folder


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "lib.sqlite"
    with Library(path) as lib:
        import_path(lib, stalled_folder(tmp_path))
        import_path(lib, FIXTURES / "runs" / "c_basic")
    return path


def test_png_svg_pdf_of_a_two_run_comparison(db: Path, tmp_path: Path, qapp) -> None:
    from PySide6.QtGui import QImage

    from benchlens.app.render import export

    with Library(db) as lib:
        fig = build(
            LibraryRunData(lib), [1, 2], [parse_panel("sysbench:tps"), parse_panel("iostat:w/s:vda+iostat:%util:vda")]
        )
    png = export(fig, tmp_path / "f.png", (1200, 675), scale=2.0)
    image = QImage(str(png))
    assert (image.width(), image.height()) == (2400, 1350)
    svg = export(fig, tmp_path / "f.svg").read_text()
    texts = svg.count("<text")
    assert texts > 15
    for expected in ("stalled", "c_basic", "−70% · 5 s", "seconds, relative to run start", "sysbench:tps"):
        assert expected in svg, expected
    assert "1/s" not in svg  # the unit said once, as people write it
    pdf = export(fig, tmp_path / "f.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")


def test_csv_replots_to_the_same_curves(db: Path, tmp_path: Path) -> None:
    with Library(db) as lib:
        fig = build(LibraryRunData(lib), [1, 2], [Panel("cpu", [SeriesRef("vmstat", "us"), SeriesRef("vmstat", "sy")])])
    out = tmp_path / "f.csv"
    write_csv(fig, out)
    rows = list(csv.reader(out.open()))
    header, body = rows[0], rows[1:]
    assert header[0] == "seconds" and header[1:] == [
        "stalled vmstat:us (%)",
        "c_basic vmstat:us (%)",
        "stalled vmstat:sy (%)",
        "c_basic vmstat:sy (%)",
    ]
    x = np.array([float(r[0]) for r in body])
    for k, line in enumerate(ln for ln in fig.lines[0]):
        cells = [(x[i], float(r[k + 1])) for i, r in enumerate(body) if r[k + 1] != ""]
        assert np.array_equal(np.array([c[0] for c in cells]), line.x)
        assert np.array_equal(np.array([c[1] for c in cells]), line.y)


def test_cli_export_default_layout_and_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli.csv"
    assert main(["export", "--run", "stalled", "--out", str(out), "--db", str(db)]) == 0
    assert out.read_text().startswith("seconds,stalled sysbench:tps (1/s)")
    for bad, message in (
        (["--run", "stalled", "--out", str(tmp_path / "x.gif")], "--out must end"),
        (["--run", "stalled", "--out", str(tmp_path / "x.png"), "--size", "huge"], "--size"),
        (["--out", str(tmp_path / "x.png")], "at least one --run"),
        (["--run", "nope", "--out", str(tmp_path / "x.png")], "no run"),
        (["--run", "stalled", "--panel", "vmstat", "--out", str(tmp_path / "x.png")], "SOURCE:METRIC"),
        (["--run", "stalled", "--from", "5", "--out", str(tmp_path / "x.png")], "--from and --to"),
    ):
        capsys.readouterr()
        assert main(["export", *bad, "--db", str(db)]) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith("benchlens:") and message in err and "\n" not in err


def test_export_runs_headless_without_a_display(db: Path, tmp_path: Path) -> None:
    out = tmp_path / "headless.png"
    p = run_cli(tmp_path, "export", "--run", "stalled", "--out", str(out), "--db", str(db))  # no DISPLAY
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"


def svg_texts(path: Path) -> list[tuple[float, str]]:
    import xml.etree.ElementTree as ET

    elements = ET.parse(path).iter("{http://www.w3.org/2000/svg}text")
    return [(float(t.get("y", "nan")), "".join(t.itertext()).strip()) for t in elements]


def test_panel_shape_from_the_window_is_drawn_by_export(db: Path, tmp_path: Path, qapp) -> None:
    """What the panel menu and the panel borders set (issue 12): a log value axis in decades, a
    value axis from zero, and the panels' heights as their share of the figure."""
    from benchlens.app.render import export

    tall = Panel("Throughput", [SeriesRef("sysbench", "tps")], log_y=True, height=600)
    short = Panel("IOPS", [SeriesRef("iostat", "w/s", "vda")], y_zero=True, height=200)
    with Library(db) as lib:
        fig = build(LibraryRunData(lib), [1], [tall, short])
    placed = svg_texts(export(fig, tmp_path / "shaped.svg", (1200, 800)))
    y = {t: yy for yy, t in placed}
    top_axis = [t for yy, t in placed if y["Throughput (tps)"] < yy < y["IOPS"]]
    assert {"100", "1000"} <= set(top_axis) and "500" not in top_axis  # decades
    bottom_axis = [t for yy, t in placed if yy > y["IOPS"] and t.replace(".", "").isdigit()]
    assert "0" in bottom_axis  # from zero
    axis = y["seconds, relative to run start"]
    # 600 : 200 of the column, as in the window
    assert (y["IOPS"] - y["Throughput (tps)"]) == pytest.approx(3 * (axis - y["IOPS"]), rel=0.15)


STORY = [
    SeriesRef("sysbench", "tps"),
    SeriesRef("sysbench", "lat_ms", "95"),
    *(SeriesRef("vmstat", m) for m in ("us", "sy", "wa")),
    *(SeriesRef("iostat", m, d) for m in ("%util", "w/s", "r/s", "w_await") for d in ("sda", "vda")),
    SeriesRef("innodb_status", "checkpoint_age"),
    SeriesRef("innodb_status", "history_list_length"),
    *(SeriesRef("perfschema", "SUM_TIMER_WAIT", e) for e in ("a", "b")),
]


def test_default_layout_is_the_story_and_the_rest_is_offered() -> None:
    """Issue 12: throughput, latency, CPU, the busiest disk in one panel and the one database
    panel that moved most; the other candidates one click away. Deterministic: the same for any
    order of the series, ties broken in a fixed order."""
    from benchlens.app.analysis.layout import default_panels, more_panels

    load = {"vda": 50.0, "sda": 5.0}

    def busy(ref: SeriesRef) -> float:
        return load.get(ref.entity, 0.0)

    moved = {"checkpoint_age": 0.2, "history_list_length": 0.9, "SUM_TIMER_WAIT": 0.5}

    def spread(ref: SeriesRef) -> float:
        return moved[ref.metric]

    titles = ["Throughput (tps)", "Latency p95 (ms)", "CPU (%)", "Disk vda: %util", "History list length"]
    for have in (STORY, STORY[::-1], sorted(STORY, key=lambda r: r.spec())):
        assert [p.title for p in default_panels(have, busy, spread)] == titles
        more = [p.title for p in more_panels(have, busy, spread)]
        assert more == ["Disk vda: IOPS", "Disk vda: await (ms)", "Checkpoint age", "Top waits (ms/s)"]
    assert default_panels(STORY, busy, lambda r: 0.3)[-1].title == "Checkpoint age"  # a tie: the fixed order
    assert default_panels(STORY)[-1].title == "Checkpoint age"  # nothing to rate by
    # what explains the drops (a flushing stall: the checkpoint age), whatever moved most; right
    # under throughput and latency when it explains them best, in its place otherwise
    flushing = {"flushing": 2.0, "cpu": 1.0}
    shown = default_panels(STORY, busy, spread, lambda c: flushing.get(c, 0.0))
    assert [p.title for p in shown] == [*titles[:2], "Checkpoint age", *titles[2:4]]
    cpu_first = {"flushing": 1.0, "cpu": 2.0}
    # issue 24: every panel that explains the drops comes above those that do not, most first
    assert [p.title for p in default_panels(STORY, busy, spread, lambda c: cpu_first.get(c, 0.0))] == [
        *titles[:3],
        "Checkpoint age",
        titles[3],
    ]
    assert "History list length" in [p.title for p in more_panels(STORY, busy, spread, lambda c: flushing.get(c, 0.0))]
    no_util = [r for r in STORY if r.metric != "%util"]
    assert default_panels(no_util, busy, spread)[3].title.endswith("IOPS")  # the disk panel there is


def exported_specs(db: Path, run: str, out: Path, *more: str) -> list[str]:
    assert main(["export", "--run", run, "--out", str(out), "--db", str(db), *more]) == 0
    header = next(csv.reader(out.open()))
    return [h.split(" ", 1)[1].rsplit(" (", 1)[0] for h in header[1:]]


def test_cli_export_without_panels_draws_the_story(tmp_path: Path) -> None:
    """Issue 24: the default export was the window's seven panels of ~45 px in 1200x675; it tells
    the story in at most four (the blog preset's), every panel only with --preset all."""
    db = tmp_path / "story.sqlite"
    with Library(db) as lib:
        import_path(lib, FIXTURES / "runs" / "recorded_mariadb_oltp")
        run = lib.runs()[0].name
    story = exported_specs(db, run, tmp_path / "story.csv")
    assert story == exported_specs(db, run, tmp_path / "blog.csv", "--preset", "blog")  # <= 4 panels: its test
    specs = exported_specs(db, run, tmp_path / "all.csv", "--preset", "all")
    assert len(specs) > len(story)
    assert specs[:5] == ["sysbench:tps", "sysbench:lat_ms:95", "vmstat:us", "vmstat:sy", "vmstat:wa"]
    assert [s for s in specs if s.startswith("iostat:")] == [specs[5]] and "%util" in specs[5]
    database = {s.split(":")[0] for s in specs[6:]}
    assert len(database) == 1 and database <= {"innodb_status", "perfschema"}


def test_two_runs_with_one_redo_log_label_its_flush_points_once(tmp_path: Path) -> None:
    """Two runs of the same 16 MB redo log (bench/drop_quality's flushing runs): each run's
    dashed lines, one label for each flush point, the sync point's under its line (it is at the
    top of the panel)."""
    runs = Path(__file__).parents[2] / "bench" / "drop_quality" / "runs"
    db = tmp_path / "lib.sqlite"
    with Library(db) as lib:
        for name in ("flushing-long-writes-2", "flushing-short-writes"):
            import_path(lib, runs / name)
    out = tmp_path / "flush.svg"
    args = ["export", "--run", "flushing-long-writes-2", "--run", "flushing-short-writes", "--db", str(db)]
    assert main([*args, "--panel", "Checkpoint age=innodb_status:checkpoint_age", "--out", str(out)]) == 0
    texts = [t for _, t in svg_texts(out)]
    assert texts.count("sync flush point 12.9 MB") == 1 and texts.count("async flush point 11.3 MB") == 1
