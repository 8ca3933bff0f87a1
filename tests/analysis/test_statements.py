"""Another client known by the statements it issued (app/analysis/statements.py): on the levels an
explanation carries, and on the recorded dump the churn workload's own scans hid."""

from __future__ import annotations

from pathlib import Path

from benchlens.app.analysis.verdict import classes, verdict
from benchlens.app.analysis.window import explain_window
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.analysis.test_verdict import _levels

CORPUS = Path(__file__).resolve().parents[2] / "bench" / "drop_quality"


def test_a_dump_the_workloads_own_scans_drown_is_known_by_its_show_create_table() -> None:
    # held-out dump-short-churn's levels over its truth window: the churn workload's own 15,800 full
    # scans a second fell with its commits; the deadlocks, its own, grew 1.5x; mysqldump's SHOW
    # CREATE TABLE appeared
    churn = _levels(
        ("global_status", "Com_commit", 675.4, 314.8, -8.2),
        ("global_status", "Select_scan", 15765.6, 13153.8, -3.1),
        ("global_status", "Innodb_deadlocks", 444.9, 680.3, 2.0),
        ("global_status", "Com_show_create_table", 0.0, 5.1, float("inf")),
        ("global_status", "Com_savepoint", 0.0, 5.1, float("inf")),  # session bookkeeping: not named
    )
    said = verdict(churn)
    assert said == (
        "another client's statements, none in the steady state (a dump): SHOW CREATE TABLE 0 \u2192 5.1 /s, "
        "while commits went to 47% of their steady rate"
    ), said
    assert classes(churn)[0] == "workload"


def test_work_statements_name_what_they_do_most_issued_first() -> None:
    rebuild = _levels(
        ("global_status", "Com_commit", 600.0, 300.0, -8.0),
        ("global_status", "Com_alter_table", 0.0, 0.5, float("inf")),
        ("global_status", "Com_insert_select", 0.0, 2.2, float("inf")),
    )
    assert verdict(rebuild).startswith(
        "another client's statements, none in the steady state (a bulk load): INSERT ... SELECT 0 \u2192 2.2 /s, "
        "ALTER TABLE 0 \u2192 0.5 /s"
    ), verdict(rebuild)
    # without a throughput of the server's, the statements are said alone
    alone = _levels(("global_status", "Com_optimize", 0.0, 0.1, float("inf")))
    assert (
        verdict(alone)
        == "another client's statements, none in the steady state (a table rebuilt): OPTIMIZE TABLE 0 \u2192 0.1 /s"
    )


def test_statements_the_steady_state_issued_or_a_session_keeps_are_not_another_clients() -> None:
    # issued in the steady state too (a workload that creates tables now and then: its mean above 0)
    steady = _levels(
        ("global_status", "Com_commit", 600.0, 300.0, -8.0), ("global_status", "Com_create_table", 0.02, 3.0, 40)
    )
    assert "statements" not in verdict(steady)
    # a SET GLOBAL that shrank the pool, a lock holder's ROLLBACK, a benchmark's clients closing
    # their statements at its end, a FLUSH TABLES (lock_waits' own): no work on the data
    for metric in ("Com_set_option", "Com_rollback", "Com_stmt_close", "Com_flush", "Com_show_status"):
        book = _levels(
            ("global_status", "Com_commit", 600.0, 300.0, -8.0), ("global_status", metric, 0.0, 1.0, float("inf"))
        )
        assert "none in the steady state" not in verdict(book), (metric, verdict(book))


def test_the_recorded_dump_under_the_churn_workload_is_a_dump(tmp_path: Path) -> None:
    """dump-short-churn (bench/drop_quality): a mysqldump loop for 12 s under 32 sessions on 10 rows.
    Its truth window was "a deadlock storm" (the workload's own deadlocks, 445 -> 680 /s)."""
    rows = dict(line.split("\t", 1) for line in (CORPUS / "truth" / "dump-short-churn.tsv").read_text().splitlines())
    lib = Library(tmp_path / "lib.sqlite")
    try:
        rid = import_path(lib, CORPUS / "runs" / "dump-short-churn").id
        got = explain_window(LibraryRunData(lib), rid, (float(rows["start"]), float(rows["end"])), "absolute")
        assert got.verdict().startswith("another client's statements, none in the steady state (a dump)"), got.verdict()
        assert list(got.classes())[0] == "workload"
    finally:
        lib.close()


def test_a_statement_whose_count_the_window_barely_holds_is_seen() -> None:
    # held-out rebuild-long-hot's second drop (62-182 s): its ALTER TABLE was counted when it began
    tail = _levels(
        ("global_status", "Com_commit", 600.0, 1.0, -20.0),
        ("global_status", "Com_alter_table", 0.0, 0.000726, float("inf")),
    )
    assert verdict(tail).startswith(
        "another client's statements, none in the steady state (a schema change): ALTER TABLE seen,"
    )
