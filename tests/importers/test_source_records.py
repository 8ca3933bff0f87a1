"""The importer -> ingest -> library contract: SourceWarning and SourceMeta as stored, read back,
and read from libraries written before they were records (plain warning strings, meta "steps")."""

from __future__ import annotations

import json

import pytest

from benchlens.importers._types import WARNING_KINDS, Context, RawClock, SourceMeta, SourceWarning, Timing, TpccRun


@pytest.mark.parametrize(
    ("warning", "shown"),
    [
        (
            SourceWarning(3, "since_boot", "first report is since boot; dropped"),
            "line 3: first report is since boot; dropped",
        ),
        (SourceWarning(None, "limit", "12 more warnings not shown"), "12 more warnings not shown"),
    ],
)
def test_a_warning_shows_as_before_and_survives_json(warning: SourceWarning, shown: str) -> None:
    assert str(warning) == shown
    assert SourceWarning.from_json(json.loads(json.dumps(warning.to_json()))) == warning


def test_old_plain_string_warnings_are_read_as_records_of_kind_other() -> None:
    old = SourceWarning.from_json("line 3: first report is since boot; dropped")
    assert old == SourceWarning(3, "other", "first report is since boot; dropped")
    assert SourceWarning.from_json("no vmstat rows found") == SourceWarning(None, "other", "no vmstat rows found")
    assert SourceWarning.from_json("a line longer than 1 MiB at byte 7 was skipped").line is None
    assert "other" in WARNING_KINDS


def test_the_warning_cap_adds_one_limit_record() -> None:
    ctx = Context(RawClock(), max_warnings=2)
    for k in range(5):
        ctx.warn(k + 1, "not a row", kind="unreadable")
    ctx.finish_warnings()
    assert [str(w) for w in ctx.warnings] == ["line 1: not a row", "line 2: not a row", "3 more warnings not shown"]
    assert ctx.warnings[-1].kind == "limit"


def test_meta_keeps_what_the_library_keeps_and_reads_it_back() -> None:
    meta = SourceMeta(
        timing=Timing.RELATIVE,
        launch=1.0,
        host="db1",
        kernel="Linux 6.1",
        cpus=8,
        utc_offset=3600.0,
        log_runs=[(0.0, 10.0), (10.0, 20.0)],
        tpcc_runs=[TpccRun(threads=4, warehouses=10, tpmc=1234.5, rampup=30), TpccRun(threads=8)],
    )
    stored = json.loads(json.dumps(meta.to_json()))
    assert stored == {
        "host": "db1",
        "kernel": "Linux 6.1",
        "cpus": 8,
        "utc_offset": 3600.0,
        "log_runs": [[0.0, 10.0], [10.0, 20.0]],
        "tpmc": 1234.5,
        "warehouses": 10,
        "threads": 4,
    }
    back = SourceMeta.from_json(stored, "tpcc")
    assert back.to_json() == stored and back.log_runs == meta.log_runs and back.threads == 4
    assert back.timing is Timing.WALL and back.launch is None  # import-time facts are not stored


def test_old_meta_steps_mean_log_runs_for_sysbench_and_user_steps_for_dbstress() -> None:
    old = {"steps": [[0.0, 10.0], [10.0, 20.0]], "users": [1, 2], "rw": 1, "tool_version": "sysbench 1.0.20"}
    sb = SourceMeta.from_json(old, "sysbench")
    assert sb.log_runs == [(0.0, 10.0), (10.0, 20.0)] and sb.user_steps == []
    db = SourceMeta.from_json(old, "dbstress")
    assert db.user_steps == [(0.0, 10.0), (10.0, 20.0)] and db.log_runs == [] and db.user_levels == [1, 2]
    assert db.rw == 1 and sb.tool_version == "sysbench 1.0.20"
    assert SourceMeta.from_json({}, "vmstat") == SourceMeta()
