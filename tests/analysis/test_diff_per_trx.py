"""`diff`'s per-transaction values (app/analysis/diff.py): what is counted per second and the CPU
time a busy share stands for, per transaction; a level (latency, queue, %util) has none."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benchlens.app.analysis.diff import bench_interval, diff_runs, per_transaction
from benchlens.app.ingest import Options, import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library

RUNS = Path(__file__).parents[1] / "fixtures" / "runs"


@pytest.mark.parametrize(
    ("ref", "unit", "mean", "cpus", "want"),
    [
        (SeriesRef("global_status", "Innodb_data_fsyncs"), "1/s", 400.0, None, (2.0, "")),
        (SeriesRef("iostat", "wkB/s", "vda"), "kB/s", 400.0, None, (2.0, "kB")),
        (
            SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/io/file/innodb/innodb_log_file"),
            "ms/s",
            400.0,
            None,
            (2.0, "ms"),
        ),
        # 40 % of a 4-CPU machine at 200 trx/s: 1.6 CPU-s a second, 8 CPU ms a transaction
        (SeriesRef("vmstat", "sy"), "%", 40.0, 4, (8.0, "CPU ms")),
        (SeriesRef("mpstat", "%usr", "all"), "%", 40.0, 4, (8.0, "CPU ms")),
        (SeriesRef("mpstat", "%usr", "1"), "%", 40.0, 4, (2.0, "CPU ms")),  # 40 % of one CPU
        (SeriesRef("vmstat", "sy"), "%", 40.0, None, (math.nan, "")),  # how many CPUs is not known
        (SeriesRef("vmstat", "id"), "%", 40.0, 4, (math.nan, "")),  # idle is not CPU time spent
        (SeriesRef("iostat", "w_await", "vda"), "ms", 4.0, None, (math.nan, "")),
        (SeriesRef("iostat", "%util", "vda"), "%", 40.0, None, (math.nan, "")),
        (SeriesRef("iostat", "aqu-sz", "vda"), "", 2.0, None, (math.nan, "")),
        (SeriesRef("global_status", "Threads_connected"), "", 8.0, None, (math.nan, "")),
    ],
)
def test_per_transaction(ref: SeriesRef, unit: str, mean: float, cpus: int | None, want: tuple[float, str]) -> None:
    value, per = per_transaction(ref, unit, mean, 200.0, cpus)
    assert per == want[1]
    assert (math.isnan(value) and math.isnan(want[0])) or value == pytest.approx(want[0])


def test_diff_of_two_recorded_runs_gives_fsyncs_per_transaction(tmp_path: Path) -> None:
    """innodb_flush_log_at_trx_commit 1 -> 2 on two recorded MariaDB runs: the redo log is no longer
    synced at each commit, so fsyncs per transaction fall; levels have no per-transaction value."""
    with Library(tmp_path / "lib.sqlite") as lib:
        ids = [
            import_path(lib, RUNS / name, Options(name=name)).id
            for name in ("config_trx_commit_1", "config_trx_commit_2")
        ]
        data = LibraryRunData(lib)
        found = diff_runs(data, ids[0], ids[1])
        tps = bench_interval(data, ids[0])[2]
        by = {d.ref.spec(): d for d in found.series}
        fsyncs = by["global_status:Innodb_data_fsyncs"]
        assert fsyncs.trx_unit == "" and fsyncs.per_trx_b < fsyncs.per_trx_a / 2
        for d in found.series:
            unit = data.unit(ids[1], d.ref)
            if not unit.endswith("/s") and unit != "%":
                assert math.isnan(d.per_trx_a) and math.isnan(d.per_trx_b) and d.as_json()["per_trx_unit"] is None
            elif unit.endswith("/s"):  # a rate: its mean over the mean throughput
                assert d.per_trx_a == pytest.approx(d.a / tps) and d.trx_unit == ("" if unit == "1/s" else unit[:-2])
