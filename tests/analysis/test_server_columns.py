"""The server's counters read from dstat's and dool's MySQL plugins where no status loop ran
(quantities.SERVER_COLUMNS): one quantity with the status counter, and the causes read them."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis import server_rate
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import Explanation, quantity
from benchlens.app.analysis.verdict import verdict
from benchlens.app.model import SeriesRef


def _levels(*rows: tuple[str, str, float, float, float]) -> Explanation:
    changes = {SeriesRef(f, m): Change(SeriesRef(f, m), z, b, d) for f, m, b, d, z in rows}
    return Explanation([], changes)


def test_a_plugin_column_is_the_status_counter_it_reads() -> None:
    assert quantity(SeriesRef("dstat", "mysql5_io.sent")) == quantity(SeriesRef("global_status", "Bytes_sent"))
    assert quantity(SeriesRef("dstat", "MySQL_InnoDB_full.r#ins")) == quantity(
        SeriesRef("global_status", "Innodb_rows_inserted")
    )
    assert quantity(SeriesRef("dstat", "innodb_pool.wri")) == quantity(SeriesRef("innodb_status", "pages_written/s"))


def test_a_dump_seen_by_dool_alone_is_another_clients_scan() -> None:
    # dool's mysql-io and mysql-cmds plugins: bytes sent x8 while the selects fell to 60 %
    dump = _levels(
        ("dstat", "mysql5_io.sent", 2.0e6, 16.0e6, 40.0),
        ("dstat", "mysql5_cmds.sel", 9000.0, 5400.0, -12.0),
        ("dstat", "procs.run", 1.0, 3.0, 8.0),
    )
    assert verdict(dump) == (
        "another client's scans or a dump: bytes sent to clients 2 → 16 MB/s, "
        "while selects went to 60% of their steady rate"
    )


def test_a_dool_capture_without_commits_counts_its_statements() -> None:
    t = np.array([1.0, 2.0, 3.0])
    cols = {"sel": [900, 950, 400], "ins": [10, 10, 5], "upd": [20, 20, 10], "del": [10, 10, 5]}
    refs = {SeriesRef("dstat", f"mysql5_cmds.{k}"): (t, np.array(v, float)) for k, v in cols.items()}
    cand, _, v = server_rate.derive(refs, refs.get)
    assert cand.label == "statements /s (selects + inserts + updates + deletes)" and v.tolist() == [940, 990, 420]


def test_a_recorded_dump_captured_by_dool_alone_is_named_with_its_window(tmp_path) -> None:
    """bench/drop_quality/runs/dool-dump-long-smooth: dool 1.3.8 with its MySQL and InnoDB plugins
    at 1 s, no benchmark log, a mariadb-dump loop for 40 s beside sysbench (truth file). The
    throughput is the server's statements; the verdict reads the dump in mysql5_io.sent (before:
    "cpu: dstat:procs.new 7 → 71.9", the dump's processes), and its cause window is the truth's.
    At the high sensitivity: at the default the drop (statements -27 % for the dump's first 14 s,
    T 1.7 on its own) stands on bytes sent alone, whose own test is at the edge (T 8.45 against
    8.45, app/analysis/confirm.py), and is left out."""
    from benchlens.app.analysis.run_drops import run_findings
    from benchlens.app.ingest import import_path
    from benchlens.app.rundata import LibraryRunData
    from benchlens.app.store import Library
    from tests.analysis.test_verdict import CORPUS, truth

    with Library(tmp_path / "l.sqlite") as lib:
        run = import_path(lib, CORPUS / "runs" / "dool-dump-long-smooth").id
        found = run_findings(LibraryRunData(lib), run, sensitivity="high")
    assert found.ref == server_rate.SERVER_TPS
    start, end = truth("dool-dump-long-smooth")
    (d,) = [d for d in found.drops if d.drop.start < end and d.drop.end > start]
    assert d.verdict().startswith(
        "another client's scans or a dump: bytes sent to clients 27.5 → 4"
    )  # the steady level without the capture's idle ends
    assert d.cause is not None and abs(d.cause.start - start) <= 3 and abs(d.cause.end - end) <= 3


def test_the_counter_that_proves_a_verdict_gets_a_panel_under_the_throughput(tmp_path) -> None:
    """The dump's verdict rests on dool's mysql-io `sent` (Bytes_sent), which no panel of the usual
    story (CPU, disk, network) shows: the default layout gives it one, second, in the first four
    (the drops found at the high sensitivity: the test above says why)."""
    from benchlens.app.analysis.run_drops import run_findings
    from benchlens.app.figure import default_layout
    from benchlens.app.ingest import import_path
    from benchlens.app.rundata import LibraryRunData
    from benchlens.app.store import Library
    from tests.analysis.test_verdict import CORPUS

    with Library(tmp_path / "l.sqlite") as lib:
        dump = import_path(lib, CORPUS / "runs" / "dool-dump-long-smooth").id
        quiet = import_path(lib, CORPUS / "runs" / "dool-quiet-smooth").id
        data = LibraryRunData(lib)
        found = {r: run_findings(data, r, sensitivity="high") for r in (dump, quiet)}
        panels = default_layout(data, [dump, quiet], found)
        alone = default_layout(data, [quiet], {quiet: found[quiet]})
    assert [p.title for p in panels[:2]] == ["Server throughput (statements /s)", "Bytes_sent"]
    assert panels[1].refs == [SeriesRef("dstat", "mysql5_io.sent")]
    assert "Bytes_sent" not in [p.title for p in alone]  # no drop, no verdict, no panel


def test_a_session_that_came_with_cpu_where_no_rows_are_counted_is_another_clients_queries() -> None:
    """Held-out dool-join-long-smooth's levels: dool on MariaDB counts no rows (its InnoDB row
    columns read 0), one more session connected and user CPU rose while the selects fell."""
    rows = [
        ("dstat", "mysql5_conn.ThCon", 8.0, 8.94, 30.0),
        ("dstat", "mysql5_cmds.sel", 21000.0, 13650.0, -10.0),
        ("dstat", "cpu.usr", 52.3, 70.5, 12.0),
        ("dstat", "innodb_ops.rea", 0.0, 0.0, 0.0),
    ]
    came = _levels(*rows)
    assert verdict(came).startswith("another client's queries: sessions connected 8 → 8.94, user CPU +18 points")
    # rows counted: foreign_work names the work; a session alone (a status loop's own connections
    # overlapping under a CPU hog) is no other client's work
    counted = _levels(*rows[:3], ("dstat", "innodb_ops.rea", 9000.0, 6000.0, -8.0))
    assert verdict(counted).startswith("user CPU +18 points: CPU taken by other work")
    # no session came: a process took the CPU
    hog = _levels(("dstat", "mysql5_conn.ThCon", 8.0, 8.0, 0.0), *rows[1:])
    assert verdict(hog).startswith("user CPU +18 points: CPU taken by other work")
    # the server's own work explains the CPU (it fell less than the CPU rose, not beyond it)
    busy = _levels(
        rows[0], ("dstat", "mysql5_cmds.sel", 21000.0, 20000.0, -1.0), ("dstat", "cpu.usr", 52.3, 56.0, 6.0), rows[3]
    )
    assert not verdict(busy).startswith("another client's queries")


def test_a_burst_of_writes_with_a_session_that_came_is_another_clients_writes() -> None:
    """Held-out dool-rebuild-long-churn's levels: no rows and no server writes counted, a device's
    writes x46 while one more session connected (another client's table rebuilds); the same
    writes with the sessions flat are another writer's, or the server's own (dool-disk-writers)."""
    writes = ("dstat", "dsk.writ", 5.67e6, 260e6, 80.0)
    rows = ("dstat", "innodb_ops.ins", 0.0, 0.0, 0.0)
    came = _levels(writes, rows, ("dstat", "mysql5_conn.ThCon", 36.0, 37.0, 40.0))
    assert verdict(came).endswith(
        "while a session connected (36 → 37): another client's writes (no rows or server writes counted)"
    )
    flat = _levels(writes, rows, ("dstat", "mysql5_conn.ThCon", 36.0, 36.0, 0.0))
    assert verdict(flat).endswith("another writer, or the server's own (its writes not measured)")
