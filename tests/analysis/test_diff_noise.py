"""B vs A with a noise floor (issue 24): two recorded runs that differ by
innodb_flush_log_at_trx_commit (1, 2). The table ranked a 12 s burst of foreign reads first (rkB/s
481 -> 5,558 on average: 20 MB/s for a few seconds), and CPU shares that moved less than a sample
does second to second among the rest. The fsyncs and writes the setting removes come first; a
difference inside the runs' own variation ranks last, marked as noise."""

from __future__ import annotations

import pytest

from benchlens.app.analysis.diff import diff_runs, series_by_quantity
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from tests.conftest import ROOT

RUNS = ROOT / "bench" / "drop_quality" / "runs"


@pytest.fixture(scope="module")
def result(tmp_path_factory: pytest.TempPathFactory):
    from benchlens.app.store import Library

    with Library(tmp_path_factory.mktemp("diff") / "lib.sqlite") as lib:
        a, b = (import_path(lib, RUNS / name).id for name in ("pair-flushlog-1", "pair-flushlog-2"))
        yield diff_runs(LibraryRunData(lib), a, b)


def test_the_setting_s_effect_comes_first_and_noise_last(result) -> None:
    rows = [d.ref for d, _ in series_by_quantity(result.series)]
    fsyncs, writes = SeriesRef("global_status", "Innodb_data_fsyncs"), SeriesRef("iostat", "w/s", "vda")
    burst = rows.index(SeriesRef("iostat", "rkB/s", "vda"))
    assert rows.index(fsyncs) < burst and rows.index(writes) < burst and rows.index(fsyncs) < 5
    us = next(d for d in result.series if d.ref == SeriesRef("vmstat", "us"))  # 70.7 -> 73.2 %, sigma ~8
    assert us.noise and us.weight == 0 and us.as_json()["noise"] is True
    assert result.series[-1].noise and not next(d for d in result.series if d.ref == fsyncs).noise


def test_each_run_s_mean_throughput_is_said(result) -> None:
    a, b = result.tps
    assert a == pytest.approx(738.7, abs=0.1) and b == pytest.approx(722.9, abs=0.1)
    assert result.as_json()["throughput"] == {"a": a, "b": b}


def test_the_command_line_reads_numbers_without_e_notation(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchlens diff` printed vmstat's cache as 1.91353e+06 (issue 24: never e-notation)."""
    import re

    from benchlens.app.cli import main

    db = str(tmp_path / "cli.sqlite")
    assert main(["import", str(RUNS / "pair-flushlog-1"), str(RUNS / "pair-flushlog-2"), "--db", db]) == 0
    capsys.readouterr()
    assert main(["diff", "pair-flushlog-1", "pair-flushlog-2", "--db", db, "--top", "200"]) == 0
    out = capsys.readouterr().out
    assert "vmstat:cache" in out and not re.search(r"\d[eE][+-]\d", out) and " noise " in out
