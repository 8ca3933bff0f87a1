"""`benchlens diff` lists a quantity once, whichever collectors measured it, and a series flat in A
has no effect in sigmas (issue #23 part 3). Two runs of bench/drop_quality (a dump, a bulk load)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchlens.app.analysis.diff import diff_runs, series_by_quantity
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from tests.conftest import ROOT, cli_json

RUNS = ROOT / "bench" / "drop_quality" / "runs"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory):
    from benchlens.app.store import Library

    with Library(tmp_path_factory.mktemp("diff") / "lib.sqlite") as lib:
        a, b = (import_path(lib, RUNS / name).id for name in ("dump-long-smooth", "bulk-insert-long-smooth"))
        yield diff_runs(LibraryRunData(lib), a, b)


def test_the_disks_writes_are_one_row(result) -> None:
    rows = series_by_quantity(result.series)
    refs = [d.ref for d, _ in rows]
    # iostat's and vmstat's writes on one row, whichever ranks first (their effects are within 2 %)
    wkb, bo = SeriesRef("iostat", "wkB/s", "vda"), SeriesRef("vmstat", "bo")
    writes = next((d, also) for d, also in rows if wkb in (d.ref, *also))
    assert {writes[0].ref, *writes[1]} >= {wkb, bo} and len({wkb, bo} & set(refs)) == 1
    assert len(rows) < len(result.series)
    assert sum(1 + len(also) for _, also in rows) == len(result.series)  # nothing lost, only grouped


def test_a_series_flat_in_a_has_no_effect_in_sigmas(result) -> None:
    created = next(d for d in result.series if d.ref == SeriesRef("global_status", "Com_create_table"))
    assert created.a == 0 and created.b > 0 and created.effect == math.inf
    assert created.as_json()["effect"] is None


def test_the_command_line_says_what_else_measured_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "cli.sqlite")
    for name in ("dump-long-smooth", "bulk-insert-long-smooth"):
        cli_json(capsys, "import", str(RUNS / name), "--db", db, "--json")
    from benchlens.app.cli import main

    assert main(["diff", "dump-long-smooth", "bulk-insert-long-smooth", "--db", db, "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert ("iostat:wkB/s:vda" in out and "also vmstat:bo" in out) or (
        "vmstat:bo" in out and "also iostat:wkB/s:vda" in out
    )
