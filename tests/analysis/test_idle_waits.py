"""Idle and background waits (issue 14): the shipped list against real Performance Schema captures of
MariaDB 10.11 and MySQL 8 (which events are idle there, which are real), the rules of the editable
list (a later line wins, `!` keeps, the user's file after the shipped one), and idle waits left out of
the Top waits tables, the default top-waits panel and explanations."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis import idle
from benchlens.app.analysis.layout import layout_for_runs
from benchlens.app.analysis.relevance import is_evidence
from benchlens.app.analysis.summary import Window, top_waits
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from benchlens.importers import perfschema
from tests.analysis.test_top_waits import perfschema_rates
from tests.conftest import parse_series

FIX = Path(__file__).resolve().parents[1] / "fixtures"
ALL_INSTRUMENTS = FIX / "idle_waits" / "perfschema_mariadb-10.11.19_all-instruments.txt"
CAPTURES = [
    ALL_INSTRUMENTS,
    FIX / "diagnosis" / "three_disturbances" / "perfschema.log.gz",
    FIX / "diagnosis" / "bursty_long_drops" / "perfschema.log.gz",
    FIX / "runs" / "recorded_mariadb_oltp" / "perfschema.log",
    FIX / "perfschema" / "perfschema_mariadb-10.11.19_table_event-name-sum-timer-wait.txt",
]
# Every event these real captures hold that is idle or background (a session between statements
# or asleep, a timer, a service thread); read off the captures by hand.
IDLE_IN_CAPTURES = {
    "idle",  # a connection waiting for its next statement
    "wait/io/socket/sql/client_connection",  # ... on its socket
    "wait/io/socket/sql/server_unix_socket",  # the listener waiting for connections
    "wait/synch/cond/sql/Item_func_sleep::cond",  # SELECT SLEEP()
    "wait/synch/cond/mysys/COND_timer",  # the timer thread
    "wait/synch/cond/aria/SERVICE_THREAD_CONTROL::COND_control",  # Aria's checkpoint thread
    "wait/synch/cond/sql/COND_manager",  # the manager thread
    "wait/synch/cond/sql/COND_start_thread",  # a thread being started
    "wait/synch/cond/sql/COND_slave_deadlock_handler",  # replication deadlock handler: idle
    "wait/synch/cond/sql/COND_rpl_thread_pool",  # parallel replication's pool, no replica here
}


@pytest.fixture(autouse=True)
def shipped_list_only(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The tests see the shipped list, whatever the machine's user file says."""
    monkeypatch.setenv("BENCHLENS_IDLE_WAITS", str(tmp_path / "none.txt"))
    idle.reload()


def events(path: Path) -> set[str]:
    """Event names of a capture read naively: the first cell of its rows (`-B` tabs, `-t` bars)."""
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    out = set()
    for line in text.splitlines():
        cells = [c.strip() for c in (line.strip("|").split("|") if line.startswith("|") else line.split("\t"))]
        if len(cells) >= 2 and (cells[0] == "idle" or cells[0].startswith("wait/")):
            out.add(cells[0])
    return out


def test_the_shipped_list_on_real_mariadb_captures() -> None:
    seen = set().union(*(events(p) for p in CAPTURES))
    assert len(seen) > 100  # the instruments that counted anything: mutexes, rwlocks, files, conds ...
    assert {e for e in seen if idle.is_idle_wait(e)} == IDLE_IN_CAPTURES
    real = ("wait/synch/cond/sql/MDL_context::COND_wait_status", "wait/lock/metadata/sql/mdl")
    assert all(e in seen and not idle.is_idle_wait(e) for e in real)
    # the InnoDB service-thread pattern srv_*_thread* leaves InnoDB's own mutexes alone
    assert "wait/synch/mutex/innodb/srv_threads_mutex" in seen
    assert not idle.is_idle_wait("wait/synch/mutex/innodb/srv_threads_mutex")


def test_in_the_capture_idle_waits_dwarf_the_real_lock_wait() -> None:
    """Why the list matters: a sleeping session, the timer and idle connections waited longer than
    the sessions queued behind a metadata lock and the global read lock."""
    _, rates = perfschema_rates(ALL_INSTRUMENTS)
    total = {e: float(np.sum(v)) for e, v in rates.items()}
    mdl = total["wait/synch/cond/sql/MDL_context::COND_wait_status"]
    assert total["wait/synch/cond/sql/Item_func_sleep::cond"] > mdl
    assert total["wait/synch/cond/mysys/COND_timer"] > mdl
    real = max((e for e in total if not idle.is_idle_wait(e)), key=lambda e: total[e])
    assert real == "wait/synch/cond/sql/MDL_context::COND_wait_status"


def test_other_servers_names() -> None:
    """MySQL 5.5-8.4 and Percona name the same waits (mysql-server's instrument names)."""
    for name in (
        "wait/synch/cond/sql/COND_thread_cache",
        "wait/synch/cond/sql/COND_flush_thread_cache",
        "wait/synch/cond/sql/Source_info::sleep_cond",
        "wait/synch/cond/sql/Event_queue::COND_queue_state",
        "wait/synch/cond/sql/COND_compress_gtid_table",
        "srv_master_thread",
    ):
        assert idle.is_idle_wait(name), name
    for name in (
        "wait/synch/cond/sql/COND_global_read_lock",
        "wait/synch/cond/sql/COND_refresh",
        "wait/synch/cond/sql/User_level_lock::cond",
        "wait/synch/cond/sql/wait_for_commit::COND_wait_commit",
        "wait/io/file/innodb/innodb_log_file",
        "wait/synch/mutex/innodb/log_sys_mutex",
    ):
        assert not idle.is_idle_wait(name), name


def test_rules_later_line_wins_and_bang_keeps() -> None:
    rules = idle.parse_rules("# comment\n\nCOND_*\n!COND_refresh\nwait/io/socket/*\n  !wait/io/socket/sql/x  \n")
    w = idle.IdleWaits(rules, [])
    assert w.is_idle("wait/synch/cond/sql/cond_TIMER")  # case-insensitive
    assert not w.is_idle("wait/synch/cond/sql/COND_refresh")
    assert w.is_idle("wait/io/socket/sql/client_connection")  # a '/' pattern: the whole name
    assert not w.is_idle("wait/io/socket/sql/x")
    assert not w.is_idle("wait/synch/mutex/sql/LOCK_open")
    assert not idle.IdleWaits(idle.parse_rules("socket/*"), []).is_idle("wait/io/socket/sql/client_connection")


def test_the_user_file_comes_after_the_shipped_list(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    mine = tmp_path / "idle_waits.txt"
    mine.write_text("!COND_timer\nwait/synch/mutex/sql/LOCK_open\n")
    monkeypatch.setenv("BENCHLENS_IDLE_WAITS", str(mine))
    idle.reload()
    assert not idle.is_idle_wait("wait/synch/cond/mysys/COND_timer")
    assert idle.is_idle_wait("wait/synch/mutex/sql/LOCK_open")
    assert idle.is_idle_wait("idle")  # the shipped rules still hold
    assert idle.idle_waits().files[-1] == str(mine)


def test_an_unreadable_or_binary_user_file_is_no_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BENCHLENS_IDLE_WAITS", str(tmp_path))  # a folder
    assert idle.reload().is_idle("idle")
    junk = tmp_path / "junk"
    junk.write_bytes(b"\xff\xfe\x00[*\n!\n\x00idle\n")
    monkeypatch.setenv("BENCHLENS_IDLE_WAITS", str(junk))
    assert idle.reload().is_idle("wait/synch/cond/mysys/COND_timer")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("BENCHLENS_IDLE_WAITS")
    assert idle.user_file() == tmp_path / "benchlens" / "idle_waits.txt"


def test_idle_waits_are_left_out_of_top_waits_the_panel_and_evidence(tmp_path: Path) -> None:
    folder = tmp_path / "locks"
    folder.mkdir()
    (folder / "perfschema.log").write_bytes(ALL_INSTRUMENTS.read_bytes())
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, folder).id
        data = LibraryRunData(lib)
        (table,) = top_waits(data, [run], {run: Window().t_range([lib.run(run)], run)}, top=3)
        assert [r.entity for r in table.rows] == [
            "wait/synch/cond/sql/MDL_context::COND_wait_status",
            "wait/lock/metadata/sql/mdl",
            "wait/io/table/sql/handler",
        ]
        panels = layout_for_runs([run], data.available, data.data)
        (waits,) = [p for p in panels if p.refs and p.refs[0].format == "perfschema"]
        shown = {r.entity for r in waits.refs}
        assert "wait/synch/cond/sql/MDL_context::COND_wait_status" in shown
        assert not shown & IDLE_IN_CAPTURES
    assert not is_evidence(SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/synch/cond/mysys/COND_timer"))
    assert is_evidence(SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/synch/cond/sql/MDL_context::COND_wait_status"))


# ---- MySQL 8 (real captures from public GitHub files, see tests/fixtures/MANIFEST.md) -----------------

MYSQL82_WAITS = FIX / "idle_waits" / "perfschema_mysql-8.2.0_win64_top10-sum-timer-wait.txt"
MYSQL82_MUTEXES = FIX / "idle_waits" / "perfschema_mysql-8.2.0_win64_innodb-mutexes.txt"
MYSQL8034_CONDS = FIX / "idle_waits" / "cond_instances_mysql-8.0.34_win64_mysqldump.sql"
# The idle waits of the MySQL 8.2.0 top ten by SUM_TIMER_WAIT, read off the capture by hand
IDLE_IN_MYSQL82 = {
    "idle",
    "wait/synch/cond/mysqlx/scheduler_dynamic_worker_pending",  # X Plugin workers waiting for work
}


def totals(path: Path) -> dict[str, float]:
    """SUM_TIMER_WAIT (ps) per event of a single-snapshot capture, through the perfschema importer."""
    series, _ = parse_series(perfschema, path.read_bytes())
    return {e: float(v[-1]) for (m, e), (_, v) in series.items() if m == "SUM_TIMER_WAIT"}


def test_a_real_mysql_8_wait_summary_through_the_importer() -> None:
    """MySQL 8.2.0, every instrument on: `idle` and the X Plugin's idle workers waited ~800 times
    longer than every real wait of the top ten together."""
    got = totals(MYSQL82_WAITS)
    assert set(got) == events(MYSQL82_WAITS) and len(got) == 10  # the importer read every row
    assert {e for e in got if idle.is_idle_wait(e)} == IDLE_IN_MYSQL82
    waited = sum(got[e] for e in IDLE_IN_MYSQL82)
    real = {e: v for e, v in got.items() if e not in IDLE_IN_MYSQL82}
    assert waited > 500 * sum(real.values())
    assert max(real, key=lambda e: real[e]) == "wait/io/file/innodb/innodb_data_file"


def test_mysql_8_idle_waits_are_left_out_of_top_waits_and_the_panel(tmp_path: Path) -> None:
    folder = tmp_path / "mysql82"
    folder.mkdir()
    (folder / "perfschema.log").write_bytes(MYSQL82_WAITS.read_bytes())
    got = totals(MYSQL82_WAITS)
    want = sorted((e for e in got if e not in IDLE_IN_MYSQL82), key=lambda e: -got[e])[:3]
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, folder).id
        data = LibraryRunData(lib)
        (table,) = top_waits(data, [run], {run: Window().t_range([lib.run(run)], run)}, top=3)
        assert [r.entity for r in table.rows] == want
        assert want[0] == "wait/io/file/innodb/innodb_data_file"
        panels = layout_for_runs([run], data.available, data.data)
        (waits,) = [p for p in panels if p.refs and p.refs[0].format == "perfschema"]
        shown = {r.entity for r in waits.refs}
        assert want[0] in shown and not shown & IDLE_IN_MYSQL82


def test_mysql_8_innodb_mutex_waits_stay() -> None:
    """Every InnoDB mutex a MySQL 8.2.0 server waited on is contention, not a thread asleep; among them
    page_cleaner_mutex (the page-cleaner pattern once hid it) and the srv_* mutexes."""
    series, _ = parse_series(perfschema, MYSQL82_MUTEXES.read_bytes())
    names = {e for _, e in series}
    assert names == events(MYSQL82_MUTEXES) and len(names) == 47
    for name in ("page_cleaner_mutex", "srv_sys_mutex", "srv_threads_mutex", "srv_innodb_monitor_mutex"):
        assert f"wait/synch/mutex/innodb/{name}" in names
    assert not {e for e in names if idle.is_idle_wait(e)}


MYSQL8034_IDLE = {
    f"wait/synch/cond/{n}"
    for n in (
        "sql/COND_manager",
        "sql/COND_server_started",
        "sql/COND_compress_gtid_table",
        "sql/COND_handler_count",  # Windows: the main thread waiting for the listeners to end
        "sql/COND_thread_cache",
        "sql/COND_flush_thread_cache",
        "sql/COND_connection_count",
        "sql/COND_thd_list",
        "sql/COND_queue_state",  # the event scheduler's queue
        "sql/Event_scheduler::COND_state",
        "sql/MYSQL_BIN_LOG::update_cond",  # a binlog dump thread waiting for the next write
        "sql/MYSQL_RELAY_LOG::update_cond",  # the applier waiting for the next relay log event
        "sql/Source_info::data_cond",
        "sql/Source_info::start_cond",
        "sql/Source_info::stop_cond",
        "sql/Source_info::sleep_cond",
        "sql/Relay_log_info::data_cond",
        "sql/Relay_log_info::start_cond",
        "sql/Relay_log_info::stop_cond",
        "sql/Relay_log_info::sleep_cond",
        "sql/Relay_log_info::log_space_cond",
        "sql/Source_IO_monitor::run_cond",
        "sql/THD::COND_group_replication_connection_cond_var",
        "innodb/resume_encryption_cond",
        "mysqlx/scheduler_dynamic_worker_pending",
        "mysqlx/scheduler_dynamic_thread_exit",
        "mysqlx/socket_acceptors_sync",
        "mysqlx/broker_context_sync",
        "mysqlx/server_state_sync",
        "mysqlx/listener_tcp_sync",
    )
}
MYSQL8034_REAL = {
    f"wait/synch/cond/{n}"
    for n in (
        "sql/MDL_context::COND_wait_status",
        "sql/COND_thr_lock",
        "sql/COND_open",
        "sql/Gtid_state",
        "sql/MYSQL_BIN_LOG::COND_done",
        "sql/MYSQL_BIN_LOG::COND_flush_queue",
        "sql/MYSQL_BIN_LOG::COND_wait_for_group_turn",
        "sql/MYSQL_BIN_LOG::prep_xids_cond",
        "sql/Relay_log_info::pending_jobs_cond",
        "sql/Relay_log_info::mta_gaq_cond",
        "sql/Source_info::rotate_cond",  # FLUSH RELAY LOGS waiting for the receiver
        "innodb/commit_cond",  # innodb_commit_concurrency
        "myisam/keycache_thread_var::suspend",
    )
}


def test_the_condition_variables_of_a_mysql_8_0_34_server() -> None:
    """Every condition variable a running MySQL 8.0.34 had (cond_instances: a server with a replica
    channel, the event scheduler and the X Plugin), each one idle or real by mysql-server's source.
    Not a wait summary, so read by name only; the perfschema importer reads none of it."""
    names = set(re.findall(r"'(wait/[^']+)'", MYSQL8034_CONDS.read_text()))
    assert names == MYSQL8034_IDLE | MYSQL8034_REAL
    assert {n for n in names if idle.is_idle_wait(n)} == MYSQL8034_IDLE
