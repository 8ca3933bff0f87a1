"""Trend on both backends (a file and a real MariaDB, tests/store/conftest.py): tags (CLI,
benchlens-run.json), the summary stored at import and computed for runs imported before it,
change points with their direction, known shifts and runs left out with who marked them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchlens.app.ingest import import_path
from benchlens.app.store import Library
from benchlens.app.trend import summarize_run, trend_data
from tests.conftest import cli_error, cli_json
from tests.nightly import night_folder, nightly
from tests.store.private_server import Server

STEP = [1000.0] * 25 + [930.0] * 25  # a 7 % regression at the 26th night


def test_summary_is_stored_at_import_and_read_back(lib: Library, tmp_path: Path) -> None:
    (rid,) = nightly(lib, tmp_path, [1000.0])
    have, missing = lib.summaries("throughput")
    assert missing == [] and [r.run_id for r in have] == [rid]
    row = have[0]
    # the 2 warm-up reports at half the level are left out of the steady state
    assert row.n >= 27 and 985 < row.stats["median"] < 1015 and row.stats["p99"] >= row.stats["median"]
    assert row.facts["benchmark"] == "sysbench" and row.facts["threads"] == 8 and row.facts["series"] == "sysbench:tps"


def test_a_regression_is_found_at_its_night_with_its_direction(lib: Library, tmp_path: Path) -> None:
    nightly(lib, tmp_path, STEP)
    (group,) = trend_data(lib)["groups"]
    assert [p["run"] for p in group["points"]][:2] == ["n-000", "n-001"] and len(group["points"]) == 50
    (change,) = group["changes"]
    assert change["run"] == "n-025" and change["index"] == 25 and change["kind"] == "regression"
    assert change["change"] == pytest.approx(-0.07, abs=0.01) and change["p"] < 0.001
    assert group["points"][0]["tags"] == {"version": "1.0"}


def test_latency_going_up_is_a_regression(lib: Library, tmp_path: Path) -> None:
    nightly(lib, tmp_path, STEP)
    data = trend_data(lib, metric="sysbench:lat_ms:95")
    assert data["groups"][0]["higher_is_better"] is False and trend_data(lib)["groups"][0]["higher_is_better"]
    (change,) = data["groups"][0]["changes"]
    assert change["after"] > change["before"] and change["kind"] == "regression"


def test_summaries_missing_are_computed_once_and_kept(lib: Library, tmp_path: Path) -> None:
    """A library from before the summaries (or a metric never asked for): computed on first use."""
    nightly(lib, tmp_path, [1000.0] * 3)
    lib.conn.execute("DELETE FROM run_summaries")
    assert lib.summaries("throughput")[1] != []
    assert len(trend_data(lib)["groups"][0]["points"]) == 3
    assert lib.summaries("throughput")[1] == []
    assert lib.summaries("sysbench:qps")[1] != []
    trend_data(lib, metric="sysbench:qps")
    assert lib.summaries("sysbench:qps")[1] == []


def test_known_shift_splits_the_history_and_left_out_runs_are_no_points(lib: Library, tmp_path: Path) -> None:
    ids = nightly(lib, tmp_path, [*STEP[:45], 2000.0, *STEP[45:]])  # night 45: a broken run
    lib.set_mark(ids[25], "shift", True, "alice")
    lib.set_mark(ids[45], "out", True, "bob")
    (group,) = trend_data(lib)["groups"]
    assert group["changes"] == []  # the step is the known shift; no history mixed across it
    assert [(s["run"], s["by"]) for s in group["known_shifts"]] == [("n-025", "alice")]
    assert [(p["run"], p["by"]) for p in group["left_out"]] == [("n-045", "bob")]
    assert "n-045" not in [p["run"] for p in group["points"]]
    lib.set_mark(ids[25], "shift", False, "alice")
    assert [c["run"] for c in trend_data(lib)["groups"][0]["changes"]] == ["n-025"]


def test_groups_by_threads_and_by_tag(lib: Library, tmp_path: Path) -> None:
    nightly(lib, tmp_path / "a", [1000.0] * 4, thds=8, prefix="a")
    nightly(lib, tmp_path / "b", [500.0] * 4, thds=1, prefix="b")
    groups = trend_data(lib)["groups"]
    assert sorted((g["key"]["threads"], len(g["points"])) for g in groups) == [(1, 4), (8, 4)]
    by_version = trend_data(lib, group_by=["version"])["groups"]
    assert [(g["key"], len(g["points"])) for g in by_version] == [({"version": "1.0"}, 8)]


def test_record_tags_are_imported_and_bad_ones_said(lib: Library, tmp_path: Path) -> None:
    folder = night_folder(tmp_path, "r", 0, 1000.0, {"commit": "abc123", "build": 42, "bad": [1], "": "x"})
    report = import_path(lib, folder)
    assert lib.tags(report.id)[report.id] == {"build": "42", "commit": "abc123"}
    assert any("tags not used" in w and "bad" in w for w in report.warnings)


def test_tag_command_sets_and_clears(
    lib: Library, tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (rid,) = nightly(lib, tmp_path, [1000.0])
    got = cli_json(capsys, "tag", "n-000", "commit=abc", "build=7", "--db", target, "--json")
    assert got["tags"] == {"build": "7", "commit": "abc", "version": "1.0"}
    got = cli_json(capsys, "tag", str(rid), "commit=", "--db", target, "--json")
    assert got["tags"] == {"build": "7", "version": "1.0"}
    assert "not KEY=VALUE" in cli_error(capsys, "tag", "n-000", "commit", "--db", target)
    assert "no run" in cli_error(capsys, "tag", "nope", "a=b", "--db", target)


def test_trend_command(lib: Library, tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]) -> None:
    nightly(lib, tmp_path, STEP)
    data = cli_json(capsys, "trend", "--db", target, "--json", "--stat", "mean")
    assert data["stat"] == "mean" and data["groups"][0]["changes"][0]["run"] == "n-025"
    later = cli_json(capsys, "trend", "--db", target, "--json", "--since", "2026-12-10")
    assert [p["run"] for p in later["groups"][0]["points"]][0] == "n-018"
    assert "--since" in cli_error(capsys, "trend", "--db", target, "--since", "yesterday")
    assert "SOURCE:METRIC" in cli_error(capsys, "trend", "--db", target, "--metric", "tps")


def test_summary_of_a_run_without_the_metric(lib: Library, tmp_path: Path) -> None:
    from benchlens.app.rundata import LibraryRunData

    (rid,) = nightly(lib, tmp_path, [1000.0])
    _, _, n, _, facts = summarize_run(LibraryRunData(lib), rid, "vmstat:us")
    assert n == 0 and facts["series"] is None
    assert trend_data(lib, metric="vmstat:us")["groups"] == []
    assert json.dumps(trend_data(lib, metric="vmstat:us"))  # no NaN in the JSON


def test_a_library_of_schema_2_is_upgraded_and_its_runs_summarised(target: str, tmp_path: Path) -> None:
    """Runs imported before step 3: the upgrade adds the tables, the first trend fills them."""
    with Library(target) as lib:
        nightly(lib, tmp_path, STEP)
        for table in ("run_tags", "run_summaries", "trend_marks"):
            lib.conn.execute(f"DROP TABLE {table}")
        lib.conn.execute("DELETE FROM migrations WHERE version = 3")
        lib.db.set_version(2)
    with Library(target) as lib:
        assert lib.db.version() == 3
        assert lib.summaries("throughput")[1] != []  # nothing stored for the old runs
        (group,) = trend_data(lib)["groups"]
        assert len(group["points"]) == 50 and [c["run"] for c in group["changes"]] == ["n-025"]
        assert lib.summaries("throughput")[1] == []


def test_a_deleted_run_leaves_nothing_of_trend_behind(lib: Library, tmp_path: Path) -> None:
    ids = nightly(lib, tmp_path, [1000.0] * 4)
    lib.set_tags(ids[1], {"commit": "abc"})
    lib.set_mark(ids[1], "out", True, "dave")
    lib.delete_run(ids[1])
    for table in ("run_tags", "run_summaries", "trend_marks"):
        assert lib.conn.execute(f"SELECT count(*) FROM {table} WHERE run_id = ?", (ids[1],)).fetchone()[0] == 0
    assert [p["id"] for p in trend_data(lib)["groups"][0]["points"]] == [ids[0], ids[2], ids[3]]


def test_library_copy_takes_tags_summaries_and_marks_along(
    server_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = str(tmp_path / "lab.sqlite")
    with Library(src) as lib:
        ids = nightly(lib, tmp_path / "runs", STEP)
        lib.set_tags(ids[3], {"commit": "abc"})
        lib.set_mark(ids[25], "shift", True, "erin")
        before = trend_data(lib)
    cli_json(capsys, "library", "copy", src, server_url, "--json")
    with Library(server_url) as lib:
        assert lib.summaries("throughput")[1] == []  # nothing left to compute
        after = trend_data(lib)
    strip = lambda d: [[(p["run"], p["value"], p["tags"]) for p in g["points"]] for g in d["groups"]]  # noqa: E731
    assert strip(after) == strip(before)
    assert [(s["run"], s["by"]) for s in after["groups"][0]["known_shifts"]] == [("n-025", "erin")]


def test_a_read_only_user_gets_the_trend_of_runs_without_summaries(
    mariadb_server: Server, server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Summaries that cannot be stored (a user who may only read) are used as computed."""
    with Library(server_url) as lib:
        nightly(lib, tmp_path, STEP)
        lib.conn.execute("DELETE FROM run_summaries")
    database = server_url.rsplit("/", 1)[1]
    for host in ("127.0.0.1", "localhost"):
        mariadb_server.sql(f"CREATE USER 'ro_{database}'@'{host}' IDENTIFIED BY 'read-only'")
        mariadb_server.sql(f"GRANT SELECT ON `{database}`.* TO 'ro_{database}'@'{host}'")
    monkeypatch.setenv("MYSQL_PWD", "read-only")
    with Library(server_url.replace("mysql://bl@", f"mysql://ro_{database}@")) as lib:
        (group,) = trend_data(lib)["groups"]
        assert [p["run"] for p in group["points"]][:2] == ["n-000", "n-001"] and len(group["points"]) == 50
        assert [c["run"] for c in group["changes"]] == ["n-025"]
        assert lib.summaries("throughput")[1] != []  # nothing was written
