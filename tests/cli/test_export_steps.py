"""The step-load chart (issue 12): TPS and latency against concurrency, a fixed-concurrency run as
a point, several runs overlaid, exported like any figure; and the load steps marked on the time
charts. On real captures: the sysbench cpu step loads of tests/fixtures/sysbench (1, 2, 4, 8
threads on a 2-CPU machine, TPS flat beyond 2 while latency grows) and the demo's fixed 4-thread
run (resources/demo/baseline)."""

from __future__ import annotations

import csv
import itertools
import shutil
from pathlib import Path

import pytest

from benchlens.app.analysis.layout import parse_panel
from benchlens.app.analysis.summary import load_steps
from benchlens.app.cli import main
from benchlens.app.figure import build
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.stepchart import step_chart
from benchlens.app.store import Library
from tests.cli.test_export import svg_texts
from tests.conftest import DEMO, FIXTURES


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("steps")
    path = root / "lib.sqlite"
    with Library(path) as lib:
        for prime in ("10000", "20000"):
            folder = root / f"prime{prime}"
            folder.mkdir()
            shutil.copy(
                FIXTURES / "sysbench" / f"sysbench_1.0.20_C_cpu-step-load-prime{prime}.txt", folder / "sysbench.log"
            )
            import_path(lib, folder)
        import_path(lib, DEMO / "baseline")
        import_path(lib, FIXTURES / "runs" / "c_basic")  # vmstat and iostat only: no benchmark log
    return path


def export(db: Path, out: Path, *args: str) -> int:
    return main(["export", *args, "--out", str(out), "--db", str(db)])


def test_the_points_are_the_summary_steps(db: Path) -> None:
    """The chart draws the Summary's "Load steps" numbers, not numbers of its own."""
    with Library(db) as lib:
        data = LibraryRunData(lib)
        chart = step_chart(data, [1, 2, 3])
        for line in chart.lines[:2]:
            steps = load_steps(data, line.run.id)
            assert steps is not None
            assert [(p.threads, p.tps, p.latency) for p in line.points] == [
                (s.threads, s.tps_median, s.lat_median) for s in steps.steps
            ]
            assert not line.fixed
    a, _, fixed = chart.lines
    assert [p.threads for p in a.points] == [1, 2, 4, 8] and chart.latency == "p95 ms"
    assert a.points[1].tps > 1.9 * a.points[0].tps  # 2 CPUs: TPS doubles from 1 to 2 threads
    assert a.points[3].tps < 1.05 * a.points[1].tps and a.points[3].latency > 10 * a.points[1].latency  # saturated
    assert fixed.fixed and [p.threads for p in fixed.points] == [4] and fixed.run.name == "baseline"


def test_cli_steps_png_svg_pdf_and_csv(db: Path, tmp_path: Path) -> None:
    runs = ["--run", "prime10000", "--run", "prime20000", "--run", "baseline"]
    assert export(db, tmp_path / "s.csv", *runs, "--steps") == 0
    rows = list(csv.reader((tmp_path / "s.csv").open()))
    assert rows[0] == ["run", "threads", "tps", "latency (p95 ms)", "load"]
    assert [r[:2] for r in rows[1:5]] == [["prime10000", t] for t in ("1", "2", "4", "8")]
    assert rows[-1][0] == "baseline" and rows[-1][1] == "4" and rows[-1][4] == "fixed"
    assert export(db, tmp_path / "s.svg", *runs, "--steps", "--size", "1000x600") == 0
    texts = [t for _, t in svg_texts(tmp_path / "s.svg")]
    for expected in ("Throughput (tps)", "Latency p95", "concurrency (threads)", "1", "2", "4", "8", "baseline"):
        assert expected in texts, expected
    assert any(t.endswith(" ms") for t in texts)  # the latency ticks say the unit
    assert export(db, tmp_path / "s.png", *runs, "--steps") == 0
    assert (tmp_path / "s.png").read_bytes()[:4] == b"\x89PNG"
    assert export(db, tmp_path / "s.pdf", *runs, "--steps") == 0
    assert (tmp_path / "s.pdf").read_bytes()[:4] == b"%PDF"


def test_cli_steps_errors(db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args, message in (
        (["--run", "c_basic", "--steps"], "no benchmark log"),
        (["--run", "prime10000", "--steps", "--panel", "sysbench:tps"], "--steps"),
    ):
        capsys.readouterr()
        assert export(db, tmp_path / "x.png", *args) == 1
        err = capsys.readouterr().err.strip()
        assert err.startswith("benchlens:") and message in err and "\n" not in err


def test_time_charts_mark_the_load_steps(db: Path, tmp_path: Path) -> None:
    """Each step's start and thread count, in the figure model (the window and exports draw it)."""
    with Library(db) as lib:
        fig = build(LibraryRunData(lib), [1, 3], [parse_panel("sysbench:tps")])
    marks = [s for s in fig.steps if s.run == 1]
    assert [s.threads for s in marks] == [1, 2, 4, 8]
    assert marks[0].x == pytest.approx(0.0, abs=1.5) and all(b.x - a.x > 5 for a, b in itertools.pairwise(marks))
    assert not [s for s in fig.steps if s.run == 3]  # a fixed run has no steps to mark
    assert export(db, tmp_path / "t.svg", "--run", "prime10000", "--panel", "sysbench:tps") == 0
    texts = [t for _, t in svg_texts(tmp_path / "t.svg")]
    assert {"1 thr", "2 thr", "4 thr", "8 thr"} <= set(texts)
