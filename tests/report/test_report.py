"""`benchlens report`: one self-contained HTML page that says what `drops`, `diff` and `summary`
say about the runs, with the comparison's figure as inline SVG whose text stays text; nothing a
run folder holds becomes markup; bad command lines get one line, never a traceback or a half file."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from benchlens.app.analysis.diff import diff_runs, series_by_quantity
from benchlens.app.analysis.mechanism import worth_saying
from benchlens.app.analysis.run_drops import run_findings
from benchlens.app.cli import main
from benchlens.app.errors import AnalysisError
from benchlens.app.report import inline_svg
from benchlens.app.report_html import esc
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import cli_error
from tests.report.conftest import DEMO_RUNS, HOSTILE


class _Tags(HTMLParser):
    """Every start tag of a page with its attributes, as a browser's tokenizer reads them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))


def tags_of(page: str) -> list[tuple[str, list[tuple[str, str | None]]]]:
    parser = _Tags()
    parser.feed(page)
    return parser.tags


def section(page: str, key: str) -> str:
    m = re.search(rf'<section id="{key}">(.*?)</section>', page, re.S)
    assert m, key
    return m.group(1)


@pytest.fixture(scope="module")
def demo_page(report_db: Path, tmp_path_factory: pytest.TempPathFactory, qapp) -> str:
    out = tmp_path_factory.mktemp("page") / "demo.html"
    assert main(["report", *DEMO_RUNS, "--db", str(report_db), "--out", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def test_the_page_says_what_drops_and_diff_say(demo_page: str, report_db: Path) -> None:
    drops = section(demo_page, "drops")
    with Library(report_db) as lib:
        data = LibraryRunData(lib)
        ids = [lib.run(n).id for n in DEMO_RUNS]
        said = 0
        for rid in ids:
            found = run_findings(data, rid)
            for rd in found.singles():
                assert esc(rd.verdict()) in drops
                assert esc(rd.drop.label()) in drops
                if rd.cause is not None and worth_saying(rd.cause, rd.drop):
                    assert esc(rd.cause.what) in drops
                said += 1
        assert said >= 1  # the demo's disk stall: the test reads a real verdict
        result = diff_runs(data, ids[0], ids[1])
    versus = section(demo_page, "versus-1")
    top = [d.ref.spec() for d, _ in series_by_quantity(result.series)[:20]]
    assert all(esc(spec) in versus for spec in top)
    assert versus.index(esc(top[0])) < versus.index(esc(top[-1]))  # ranked as diff ranks them
    assert "sysbench threads" in versus  # the setting that differs, before the series
    assert "B vs A" in versus  # the summary's table of the pair
    assert "against baseline" in demo_page


def test_the_figure_is_inline_svg_with_text(demo_page: str) -> None:
    figure = section(demo_page, "comparison")
    svg = figure[figure.index("<svg") : figure.index("</svg>")]
    texts = re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    assert len(texts) > 30
    for want in (*DEMO_RUNS, "Throughput (tps)", "seconds, relative to run start"):
        assert want in texts, want
    assert "<?xml" not in demo_page  # Qt's XML declaration is no part of an HTML page
    tables = section(demo_page, "tables")
    assert "Throughput stability" in tables and all(n in tables for n in DEMO_RUNS)


def test_the_page_needs_nothing_else(demo_page: str) -> None:
    for tag, attrs in tags_of(demo_page):
        assert tag not in ("script", "link", "img", "iframe", "object", "embed"), tag
        for name, value in attrs:
            assert name not in ("src", "srcset"), (tag, name)
            if name == "href":
                assert value is not None and value.startswith("#"), value
    assert "url(" not in demo_page and "@import" not in demo_page
    # the only addresses are the SVG namespace names, which nothing fetches
    assert set(re.findall(r"https?://[^\"' ]+", demo_page)) <= {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }


def test_a_run_name_with_markup_stays_text(report_db: Path, tmp_path: Path, qapp) -> None:
    out = tmp_path / "hostile.html"
    assert main(["report", HOSTILE, "baseline", "--db", str(report_db), "--out", str(out), "--title", HOSTILE]) == 0
    page = out.read_text(encoding="utf-8")
    for tag, attrs in tags_of(page):
        assert tag not in ("script", "img"), tag
        assert not [n for n, _ in attrs if n.startswith("on")], (tag, attrs)
    assert page.count(esc(HOSTILE)) >= 4  # title, heading, runs table, drops ...
    assert "&lt;script&gt;" in section(page, "comparison")  # the figure's legend, escaped by Qt


def test_a_run_without_a_benchmark_log(report_db: Path, tmp_path: Path, qapp) -> None:
    out = tmp_path / "nolog.html"
    assert main(["report", "baseline", "c_basic", "--db", str(report_db), "--out", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "c_basic: no benchmark log, so no throughput to scan for drops." in section(page, "drops")
    assert "No series comparison: run &#x27;c_basic&#x27; has no throughput series" in section(page, "versus-1")
    assert "<svg" in section(page, "comparison")  # its vmstat, iostat and mpstat are still drawn


def test_inline_svg_refuses_what_could_run() -> None:
    head = '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg">'
    assert inline_svg(f'{head}<polyline points="1.23456,2.5 3,4.98765"/></svg>') == (
        '<svg xmlns="http://www.w3.org/2000/svg"><polyline points="1.2,2.5 3,4.9"/></svg>'
    )
    for bad in ("<script>alert(1)</script>", '<rect onload="alert(1)"/>', "<foreignObject><p/></foreignObject>"):
        with pytest.raises(AnalysisError):
            inline_svg(f"{head}{bad}</svg>")
    with pytest.raises(AnalysisError, match="not well-formed"):
        inline_svg(f"{head}<g></svg>")


def test_bad_command_lines(report_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = ["--db", str(report_db)]
    assert "--out must end in .html" in cli_error(capsys, "report", "baseline", *db, "--out", str(tmp_path / "r.txt"))
    assert "no run" in cli_error(capsys, "report", "nosuchrun", *db, "--out", str(tmp_path / "r.html")).lower()
    twice = cli_error(capsys, "report", "baseline", "1", *db, "--out", str(tmp_path / "r.html"))
    assert "a run is given twice: baseline, 1" in twice
    nofolder = cli_error(capsys, "report", "baseline", *db, "--out", str(tmp_path / "no" / "r.html"))
    assert "no folder" in nofolder
    (tmp_path / "taken.html").mkdir()  # the name is a folder: the write fails, nothing is left behind
    assert "cannot write" in cli_error(capsys, "report", "baseline", *db, "--out", str(tmp_path / "taken.html"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.html"]


def test_three_runs_carry_their_trend(demo_page: str, report_db: Path) -> None:
    """With three runs the page holds their trend: one point per run, from `trend`'s own data
    restricted to these runs (not the whole library's)."""
    from benchlens.app.trend import trend_data

    trend = section(demo_page, "trend")
    with Library(report_db) as lib:
        ids = {lib.run(n).id for n in DEMO_RUNS}
        data = trend_data(lib, runs=ids)
    points = [p for g in data["groups"] for p in g["points"]]
    assert sorted(p["id"] for p in points) == sorted(ids)
    for name in DEMO_RUNS:
        assert name in trend


def test_a_drop_in_phases_lists_each_phase_with_its_verdict() -> None:
    """A drop joined from two levels (run_drops._phases_joined) says each phase on the page, and
    the one its own series did not prove says so, as `drops` does."""
    from benchlens.app.analysis.drops import NOT_TESTED, Drop
    from benchlens.app.analysis.run_drops import RunDrop
    from benchlens.app.model import SeriesRef
    from benchlens.app.report_html import when
    from benchlens.app.report_sections import _finding

    ref = SeriesRef("sysbench", "tps")
    a = RunDrop(ref, Drop(30.0, 60.0, 0.35, 1000.0, 600.0, 10.5, tested=False), [])
    b = RunDrop(ref, Drop(60.0, 120.0, 1.0, 1000.0, 0.0, 60.0), [])
    html = _finding(RunDrop(ref, Drop(30.0, 120.0, 1.0, 1000.0, 0.0, 90.0), [], phases=(a, b)))
    for k, p in enumerate((a, b), 1):
        assert esc(f"Phase {k}: {when(p.drop.start)} .. {when(p.drop.end)}  {p.drop.label()}: {p.verdict()}") in html
    assert html.index("Phase 1: ") < html.index("Phase 2: ")
    first, second = html.split("Phase 2: ")
    assert esc(NOT_TESTED) in first.split("Phase 1: ")[1] and esc(NOT_TESTED) not in second
    # a drop its own series did not prove says so under its verdict
    alone = _finding(RunDrop(ref, Drop(30.0, 60.0, 0.35, 1000.0, 600.0, 10.5, tested=False), []))
    assert esc(NOT_TESTED) in alone and esc(NOT_TESTED) not in _finding(b)
