"""SHOW GLOBAL STATUS taken in a loop, and `mysqladmin extended-status -i N` (`-r` too).

Variants covered (fixtures in tests/fixtures/global_status, captured from MariaDB 10.11):
- any client shape of the `Variable_name Value` result (table, `-B`, `-B -N`, `\\G`, see
  _mysql_table), each snapshot after a marker line (`TS <epoch> ...`, ISO, `date`);
- `mysqladmin extended-status -i N [-c M]` and bare status loops: tables one after the other and
  no times at all. Table 0 is placed by the folder clock (launch); the others as far after it as
  the server's Uptime says (`-i 3` gives steps of 3, 4, 3 s), so rates divide by the real elapsed
  time; without Uptime, table k at launch + k x --interval (variant "no timestamps");
- `mysqladmin -r`: tables after the first hold differences (recognised by Uptime going 18 -> 1 -> 2;
  without Uptime, by every non-zero counter being lower in the 2nd table than in the 1st): they are
  added back up to the cumulative values before anything else. `-r` prints 0 for text
  and NULL values, so only variables known as counters or gauges are kept then;
- `mysqladmin extended-status -i N | grep ...` (it has no LIKE): table rows without header or
  borders; the first name coming back starts the next table;
- a single snapshot without marker: the values as printed (counters as totals since start);
- any part of the result (`SHOW GLOBAL STATUS LIKE 'rocksdb%'`, `LIKE 'Innodb_buffer_pool_read%'`):
  detection looks at the layout (`Variable_name Value` in any shape) and at the names' shape
  (capitalised words joined by `_`, or names known as status: Galera's lower-case `wsrep_*`; SHOW
  VARIABLES prints lower-case names), not at a list of names that must appear.

Metrics: the variable name as printed. Counters (COUNTER_PREFIXES, COUNTERS: Com_*, Handler_*,
Innodb_rows_*, Bytes_*, MyRocks' Rocksdb_* but its memtable sizes and iterator counts ...) become
per-second rates between snapshots at the later snapshot's time (1/s; bytes B/s, times s/s, ms/s,
us/s); a counter going down (restart, FLUSH STATUS) gives no rate for that interval and a warning.
Gauges (GAUGES: Threads_running, buffer pool pages ...) keep their values at every snapshot, Uptime
(s) among them; Uptime also names resets (with Uptime_since_flush_status, not stored) and recognises
`-r`. Non-numeric values (ON/OFF, NULL, text) are skipped silently, and so is 18446744073709551615
(2^64 - 1: an unsigned -1 meaning "not set", wsrep_local_index off a cluster; mysqladmin prints it
as -1, kept); numeric variables in neither list are kept as values, with one warning naming them.
A batch or vertical result has no closing line: a last snapshot lacking variables of the one
before is taken as cut and dropped.
Entity is "" (server-wide).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers import _mysql_table as mt
from benchlens.importers._counters import Snapshots
from benchlens.importers._types import Block, Context, Timing

name = "global_status"

HEADERS = (frozenset({"variable_name", "value"}),)


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


SKIP = _names(
    "Uptime_since_flush_status Error_log_latest_write Deprecated_use_i_s_processlist_last_timestamp "
    "Innodb_redo_log_uuid Mysqlx_port"
)
# Text values (skipped anyway when printed as text; `mysqladmin -r` prints them as 0).
TEXT = _names(
    """Compression Binlog_snapshot_file Innodb_buffer_pool_dump_status Innodb_buffer_pool_load_status
    Innodb_buffer_pool_resize_status Innodb_buffer_pool_load_incomplete Innodb_have_lz4 Innodb_have_lzo
    Innodb_have_lzma Innodb_have_bzip2 Innodb_have_snappy Innodb_have_punch_hole Innodb_redo_log_enabled
    Innodb_redo_log_read_only Innodb_redo_log_resize_status Max_used_connections_time Rpl_semi_sync_master_status
    Rpl_semi_sync_slave_status Rpl_status Slave_running Replica_rows_last_search_algorithm_used
    Ssl_cipher Ssl_cipher_list Ssl_server_not_after Ssl_server_not_before Ssl_session_cache_mode Ssl_version
    Current_tls_ca Current_tls_capath Current_tls_cert Current_tls_cipher Current_tls_ciphersuites
    Current_tls_crl Current_tls_crlpath Current_tls_key Current_tls_version Tls_library_version
    Resource_group_supported Rsa_public_key Caching_sha2_password_rsa_public_key Telemetry_traces_supported
    Mysqlx_address Mysqlx_socket Mysqlx_ssl_cipher Mysqlx_ssl_cipher_list Mysqlx_ssl_version
    Mysqlx_ssl_server_not_after Mysqlx_ssl_server_not_before
    wsrep_cluster_capabilities wsrep_cluster_state_uuid wsrep_cluster_status wsrep_connected
    wsrep_provider_capabilities wsrep_provider_name wsrep_provider_vendor wsrep_provider_version wsrep_ready
    wsrep_local_state_uuid wsrep_local_state_comment wsrep_incoming_addresses wsrep_evs_repl_latency
    wsrep_evs_state wsrep_gcomm_uuid"""
)
GAUGES = _names(
    """Uptime Threads_connected Threads_running Threads_cached Max_used_connections Open_files Open_streams
    Open_tables Open_table_definitions Prepared_stmt_count Delayed_insert_threads Not_flushed_delayed_rows
    Innodb_buffer_pool_pages_data Innodb_buffer_pool_pages_dirty Innodb_buffer_pool_pages_free
    Innodb_buffer_pool_pages_misc Innodb_buffer_pool_pages_total Innodb_buffer_pool_pages_old
    Innodb_buffer_pool_pages_latched Innodb_buffer_pool_bytes_data Innodb_buffer_pool_bytes_dirty
    Innodb_buffer_pool_bytes_misc Innodb_buffer_pool_resize_status_code Innodb_buffer_pool_resize_status_progress
    Innodb_row_lock_current_waits Innodb_row_lock_time_avg Innodb_row_lock_time_max
    Innodb_history_list_length Innodb_checkpoint_age Innodb_checkpoint_max_age
    Innodb_data_pending_fsyncs Innodb_data_pending_reads Innodb_data_pending_writes
    Innodb_os_log_pending_fsyncs Innodb_os_log_pending_writes Innodb_num_open_files Innodb_available_undo_logs
    Innodb_page_size Innodb_mem_adaptive_hash Innodb_mem_dictionary Innodb_mem_total
    Innodb_ibuf_free_list Innodb_ibuf_segment_size Innodb_ibuf_size Innodb_current_row_locks
    Innodb_descriptors_memory Innodb_read_views_memory Innodb_oldest_view_low_limit_trx_id
    Innodb_onlineddl_rowlog_rows Innodb_onlineddl_rowlog_pct_used Innodb_onlineddl_pct_progress
    Innodb_encryption_rotation_estimated_iops Innodb_redo_log_logical_size Innodb_redo_log_physical_size
    Innodb_redo_log_capacity_resized Innodb_undo_tablespaces_total Innodb_undo_tablespaces_implicit
    Innodb_undo_tablespaces_explicit Innodb_undo_tablespaces_active
    Key_blocks_not_flushed Key_blocks_unused Key_blocks_used Key_blocks_warm
    Aria_pagecache_blocks_not_flushed Aria_pagecache_blocks_unused Aria_pagecache_blocks_used
    Qcache_free_blocks Qcache_free_memory Qcache_queries_in_cache Qcache_total_blocks
    Memory_used Memory_used_initial Max_memory_used Global_connection_memory Last_query_cost Stack_usage
    Acl_column_grants Acl_database_grants Acl_function_grants Acl_procedure_grants Acl_package_spec_grants
    Acl_package_body_grants Acl_proxy_users Acl_role_grants Acl_roles Acl_table_grants Acl_users
    Binlog_snapshot_position Slave_heartbeat_period Slave_open_temp_tables Replica_open_temp_tables
    Slaves_connected Slaves_running Rpl_semi_sync_master_clients Rpl_semi_sync_master_net_avg_wait_time
    Rpl_semi_sync_master_tx_avg_wait_time Rpl_semi_sync_master_wait_sessions
    Ssl_ctx_verify_depth Ssl_ctx_verify_mode Ssl_default_timeout Ssl_session_cache_size
    Ssl_used_session_cache_entries Ssl_verify_depth Ssl_verify_mode
    Table_open_cache_active_instances Tc_log_max_pages_used Tc_log_page_size
    Threadpool_idle_threads Threadpool_threads Mysqlx_worker_threads Mysqlx_worker_threads_active
    Ongoing_anonymous_transaction_count Ongoing_anonymous_gtid_violating_transaction_count
    Ongoing_automatic_gtid_violating_transaction_count Performance_schema_session_connect_attrs_longest_seen
    Error_log_buffered_bytes Error_log_buffered_events
    wsrep wsrep_applier_thread_count wsrep_rollbacker_thread_count wsrep_thread_count wsrep_cluster_conf_id
    wsrep_cluster_size wsrep_local_index wsrep_local_state wsrep_local_recv_queue wsrep_local_recv_queue_avg
    wsrep_local_recv_queue_max wsrep_local_recv_queue_min wsrep_local_send_queue wsrep_local_send_queue_avg
    wsrep_local_send_queue_max wsrep_local_send_queue_min wsrep_flow_control_paused wsrep_cert_deps_distance
    wsrep_apply_window wsrep_commit_window wsrep_cert_index_size wsrep_open_transactions
    wsrep_open_connections wsrep_cluster_weight wsrep_desync_count"""
)
COUNTER_PREFIXES = tuple(
    sorted(
        _names(
            """Com_ Handler_ Innodb_rows_ Innodb_system_rows_ Innodb_data_ Innodb_log_ Innodb_os_log_ Innodb_pages_
    Innodb_dblwr_ Innodb_ibuf_merge Innodb_ibuf_discarded Innodb_adaptive_hash_ Innodb_buffer_pool_read
    Innodb_encryption_ Innodb_num_pages_ Innodb_num_page_ Innodb_defragment_ Innodb_lsn_ Innodb_mutex_
    Innodb_s_lock_ Innodb_x_lock_ Innodb_sampled_pages_ Innodb_secondary_index_triggered_cluster_reads
    Aborted_ Bytes_ Binlog_ Connection_errors_ Created_tmp_ Feature_ Key_read Key_write Opened_ Select_ Sort_
    Table_locks_ Performance_schema_ Rows_ Subquery_cache_ Master_gtid_wait_ Max_execution_time_ Mysqlx_
    Rpl_semi_sync_ Aria_pagecache_read Aria_pagecache_write Ssl_ wsrep_"""
        )
    )
)
COUNTERS = _names(
    """Questions Queries Connections Slow_queries Slow_launch_threads Threads_created Access_denied_errors
    Busy_time Cpu_time Query_time Column_compressions Column_decompressions Delayed_errors Delayed_writes
    Delete_scan Update_scan Empty_queries Executed_events Executed_triggers Locked_connects
    Max_statement_time_exceeded Optimizer_join_prefixes_check_calls Resultset_metadata_skipped
    Qcache_hits Qcache_inserts Qcache_lowmem_prunes Qcache_not_cached Rpl_transactions_multi_engine
    Slave_connections Slave_received_heartbeats Slave_retried_transactions Slave_skipped_errors Syncs
    Table_open_cache_hits Table_open_cache_misses Table_open_cache_overflows Tc_log_page_waits
    Transactions_gtid_foreign_engine Transactions_multi_engine Aria_transaction_log_syncs
    Innodb_buffer_pool_write_requests Innodb_buffer_pool_wait_free Innodb_buffer_pool_pages_flushed
    Innodb_buffer_pool_pages_lru_flushed Innodb_buffer_pool_pages_LRU_flushed Innodb_buffer_pool_pages_lru_freed
    Innodb_buffer_pool_pages_made_young Innodb_buffer_pool_pages_made_not_young Innodb_buffer_pool_pages_split
    Innodb_row_lock_time Innodb_row_lock_waits Innodb_deadlocks Innodb_background_log_sync
    Innodb_master_thread_active_loops Innodb_master_thread_idle_loops Innodb_max_trx_id Innodb_purge_trx_id
    Innodb_purge_undo_no Innodb_truncated_status_writes Innodb_undo_truncations Innodb_page_compression_saved
    Innodb_instant_alter_column Innodb_bulk_operations Innodb_buffered_aio_submitted
    Innodb_redo_log_current_lsn Innodb_redo_log_checkpoint_lsn Innodb_redo_log_flushed_to_disk_lsn
    Count_hit_tmp_table_size Secondary_engine_execution_count Error_log_expired_events
    Deprecated_use_i_s_processlist_count"""
)
_BYTES = _names(
    """Binlog_bytes_written Innodb_data_read Innodb_data_written Innodb_os_log_written Innodb_lsn_current
    Innodb_lsn_flushed Innodb_lsn_last_checkpoint Innodb_page_compression_saved Innodb_redo_log_current_lsn
    Innodb_redo_log_checkpoint_lsn Innodb_redo_log_flushed_to_disk_lsn wsrep_replicated_bytes
    wsrep_received_bytes wsrep_repl_keys_bytes wsrep_repl_data_bytes wsrep_repl_other_bytes
    Mysqlx_bytes_received Mysqlx_bytes_sent"""
)
_TIME_UNITS = {
    "Uptime": "s",
    "Busy_time": "s",
    "Cpu_time": "s",
    "Query_time": "s",
    "Innodb_row_lock_time": "ms",
    "Master_gtid_wait_time": "us",
    "Rpl_semi_sync_master_net_wait_time": "us",
    "Rpl_semi_sync_master_tx_wait_time": "us",
    "Innodb_row_lock_time_avg": "ms",
    "Innodb_row_lock_time_max": "ms",
    "Rpl_semi_sync_master_net_avg_wait_time": "us",
    "Rpl_semi_sync_master_tx_avg_wait_time": "us",
}
_GAUGE_BYTES = re.compile(
    r"^(?:Innodb_buffer_pool_bytes_\w+|Innodb_checkpoint_(?:max_)?age|Innodb_mem_\w+|Innodb_page_size|"
    r"Innodb_redo_log_(?:logical_size|physical_size|capacity_resized)|Memory_used|Memory_used_initial|"
    r"Max_memory_used|Global_connection_memory|Qcache_free_memory|Innodb_descriptors_memory|"
    r"Innodb_read_views_memory|Error_log_buffered_bytes)$"
)
_ROCKSDB_BYTES = re.compile(r"^(?i:rocksdb_\w*bytes\w*)$")
_UNSET = "18446744073709551615"  # 2^64 - 1: an unsigned -1, what the server prints for "none"
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")
_MONITOR = re.compile(r"INNODB MONITOR OUTPUT")
_HEADER = re.compile(r"^(?:\|\s*Variable_name\s*\|\s*Value\s*\||Variable_name\tValue|\s*Variable_name: \S)", re.M)
# The names of a `Variable_name Value` result in any client shape: table row, batch line, `\G` line.
_ROW_NAME = re.compile(
    r"^(?:\|\s*(\w{1,80})\s*\|[^|\n]*\|\s*$|(\w{1,80})\t[^\t\n]*$|\s*Variable_name: (\w{1,80})\s*$)", re.M
)
_BARE_ROW = re.compile(r"^\|\s*\w{1,80}\s*\|[^|]*\|\s*$")
# Status variables are capitalised words joined by `_` (`Com_select`, `Rocksdb_rows_read`,
# `Innodb_buffer_pool_read_requests`); SHOW VARIABLES prints the same layout with lower-case names
# (`innodb_buffer_pool_size`). A status table is told by that shape, whatever LIKE kept of it.
_STATUS_SHAPED = re.compile(r"^(?:[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|Uptime|Questions|Queries|Connections|Syncs)$")


def sniff(head: str) -> float:
    if _MONITOR.search(head):
        return 0.0
    names = {n for m in _ROW_NAME.finditer(head) if (n := m.group(1) or m.group(2) or m.group(3))}
    names.discard("Variable_name")
    # Galera's status is lower-case (`SHOW GLOBAL STATUS LIKE 'wsrep%'`): known names count too
    shaped = {n for n in names if _STATUS_SHAPED.match(n) or n in GAUGES or n in COUNTERS or n in TEXT}
    if len(shaped) < 2 or 2 * len(shaped) <= len(names):
        return 0.0
    if _HEADER.search(head):
        return 0.95
    # `mysqladmin ... | grep` keeps table rows only: nothing else in the file
    lines = [x for x in head.splitlines()[:-1] if x.strip()] or head.splitlines()
    if lines and all(_BARE_ROW.match(x) for x in lines):
        return 0.9
    # `-B -N` prints no header: only a longer run of status names tells it
    return 0.9 if len(shaped) >= 4 else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    taken: list[tuple[float, int, dict[str, float], bool | None]] = []
    for s in mt.snapshot_results(chunks, ctx, _wanted, HEADERS, ["Variable_name", "Value"]):
        if s.result is None or not s.result.rows:
            ctx.warn(s.line, "snapshot without rows (failed query?); skipped", kind="unreadable")
            continue
        taken.append((s.t, s.line, _values(s.result, ctx), s.result.complete))
    if not taken:
        ctx.warn(None, "no SHOW GLOBAL STATUS rows found", kind="format")
        return
    if not any(values for _, _, values, _ in taken):
        ctx.warn(taken[0][1], "no numeric SHOW GLOBAL STATUS value found", kind="format")
        return
    if ctx.meta.timing is Timing.INDEX and len(taken) > 1:
        ctx.note_variant("tables without times (mysqladmin extended-status -i)")
        _reaccumulate(taken, ctx)
    if len(taken) > 1 and taken[-1][3] is None:
        gone = mt.missing_names(taken[-2][2], taken[-1][2])
        if gone:
            ctx.warn(
                taken[-1][1],
                f"last snapshot looks cut ({len(gone)} variables of the one before missing); skipped",
                kind="truncated",
            )
            taken.pop()
    if ctx.meta.timing is Timing.INDEX and len(taken) > 1:
        _time_by_uptime(taken, ctx)
    counters, gauges = Snapshots(), Snapshots()
    unknown: set[str] = set()
    for t, _, values, _ in taken:
        kinds = {n: _kind(n) for n in values}
        unknown.update(n for n, k in kinds.items() if k == "unknown")
        counters.add(t, {("", n): v for n, v in values.items() if kinds[n] == "counter"})
        gauges.add(t, {("", n): v for n, v in values.items() if kinds[n] in ("gauge", "unknown")})
    if unknown:
        names = ", ".join(sorted(unknown)[:8])
        ctx.warn(
            None,
            f"{len(unknown)} numeric variable(s) not known as counter or gauge, kept as values: {names}",
            kind="column",
        )
    counter_names = [n for _, n in counters.keys()]  # noqa: SIM118 (not a dict)
    if len(taken) == 1:
        ctx.note_variant("single snapshot: counters as totals since start")
        yield from counters.totals(ctx, {n: _unit(n, rate=False) for n in counter_names})
    else:
        _warn_resets(taken, ctx)
        yield from counters.rates(ctx, {n: _unit(n, rate=True) for n in counter_names})
    gauge_names = [n for _, n in gauges.keys()]  # noqa: SIM118
    yield from gauges.totals(ctx, {n: _unit(n, rate=False) for n in gauge_names})


def _wanted(res: mt.Result) -> bool:
    return HEADERS[0] <= {c.lower() for c in res.columns}


def _values(res: mt.Result, ctx: Context) -> dict[str, float]:
    out: dict[str, float] = {}
    for row in res.rows:
        var, text = row.cells["variable_name"].strip(), row.cells["value"].strip()
        if not var:  # `\t0` read as a headerless batch row: a value without a name is no series
            ctx.warn(row.line, f"value {text[:20]!r} without a variable name; skipped", kind="unreadable")
            continue
        if row.continued:  # a PEM key (MySQL 8 Rsa_public_key) spans lines; a number never does
            if _NUMBER.match(text.split("\n", 1)[0].strip()):
                ctx.warn(
                    row.line, f"{var}: value goes on over {len(row.continued)} more line(s); skipped", kind="unreadable"
                )
            continue
        if text == _UNSET:
            ctx.note_variant(
                "18446744073709551615 (unsigned -1: not set, e.g. wsrep_local_index off a cluster) skipped"
            )
        elif _NUMBER.match(text):
            out[var] = float(text)
    return out


# MyRocks (MariaDB's ha_rocksdb, Percona's and Facebook's MySQL, the last lower-case: `rocksdb_rows_read`):
# every `Rocksdb_*` status variable counts events or bytes since start, except these few levels.
_ROCKSDB_GAUGES = frozenset(
    (
        "rocksdb_memtable_total",
        "rocksdb_memtable_unflushed",
        "rocksdb_num_iterators",
        "rocksdb_manual_compactions_running",
    )
)


def _kind(var: str) -> str:
    if var in SKIP or var in TEXT:
        return "skip"
    if var in GAUGES or var.lower() in _ROCKSDB_GAUGES:
        return "gauge"
    if var in COUNTERS or var.startswith(COUNTER_PREFIXES) or var.lower().startswith("rocksdb_"):
        return "counter"
    return "unknown"


def _unit(var: str, rate: bool) -> str:
    if _kind(var) == "counter":
        base = "B" if var.startswith("Bytes_") or var in _BYTES or _ROCKSDB_BYTES.match(var) else ""
        base = base or _TIME_UNITS.get(var, "") or ("us" if var.lower() == "rocksdb_stall_micros" else "")
        if not rate:
            return base
        return f"{base}/s" if base else "1/s"
    if var in _TIME_UNITS:
        return _TIME_UNITS[var]
    if var.startswith(("Innodb_buffer_pool_pages_", "Innodb_ibuf_")):
        return "pages"
    return "B" if _GAUGE_BYTES.match(var) or var.lower().startswith("rocksdb_memtable_") else ""


def _reaccumulate(taken: list[tuple[float, int, dict[str, float], bool | None]], ctx: Context) -> None:
    """`mysqladmin -r`: every table after the first holds differences. Uptime tells: it goes on
    counting in plain mode and drops to about the interval in relative mode."""
    up = [v.get("Uptime") for _, _, v, _ in taken[:2]]
    if up[0] is None or up[1] is None:
        # Without Uptime (a grep that left it out) the counters tell: totals never all go down
        # from one table to the next, differences of a running server are far below its totals.
        first, second = taken[0][2], taken[1][2]
        counters = [n for n, v in first.items() if _kind(n) == "counter" and v > 0 and n in second]
        if not counters or any(second[n] >= first[n] for n in counters):
            return
        ctx.note_variant("mysqladmin -r inferred: no Uptime, every counter lower in the 2nd table than in the 1st")
    elif up[1] >= up[0]:
        return
    ctx.note_variant("mysqladmin -r (differences, added back up)")
    # -r prints 0 for every text variable (`Compression | 0`, `Rpl_status | 0`), in the first
    # table too: a variable known neither as counter nor as gauge cannot be told from text.
    known = {n for n in taken[0][2] if _kind(n) in ("counter", "gauge")}
    total = {n: v for n, v in taken[0][2].items() if n in known}
    taken[0] = (taken[0][0], taken[0][1], dict(total), taken[0][3])
    for k in range(1, len(taken)):
        t, line, diff, complete = taken[k]
        for n, d in diff.items():
            if n in known:
                total[n] = total.get(n, 0.0) + d
        taken[k] = (t, line, {n: total[n] for n in diff if n in known}, complete)


def _time_by_uptime(taken: list[tuple[float, int, dict[str, float], bool | None]], ctx: Context) -> None:
    """Tables without times of their own (`mysqladmin -i N`, a bare status loop) are as far apart as
    the server's Uptime says, not --interval: `-i 3` gives Uptime steps of 3, 4, 3 (the sleep comes
    after the query), and a loop that sleeps unevenly is uneven. Rates then divide by the Uptime delta.
    Uptime counts whole seconds: tables in the same second (delta 0) get no rate, with a warning."""
    up = [v.get("Uptime") for _, _, v, _ in taken]
    if any(u is None for u in up):
        return
    ups = [float(u) for u in up if u is not None]
    if any(b < a for a, b in itertools.pairwise(ups)):
        ctx.warn(None, "Uptime goes down (a restart): tables placed one every --interval", kind="time")
        return
    ctx.note_variant("tables placed by Uptime")
    steps = np.diff(ups)
    ctx.meta.interval = float(np.median(steps))
    ctx.meta.spacing = f"its own Uptime deltas (median {ctx.meta.interval:g} s over {len(steps)} steps)"
    t0 = taken[0][0]
    for k, (_, line, values, complete) in enumerate(taken):
        taken[k] = (t0 + ups[k] - ups[0], line, values, complete)


def _warn_resets(taken: list[tuple[float, int, dict[str, float], bool | None]], ctx: Context) -> None:
    """Say where counters went down, and why when Uptime tells: a restart or FLUSH STATUS."""
    for k in range(1, len(taken)):
        before, now = taken[k - 1][2], taken[k][2]
        down = sorted(n for n, v in now.items() if _kind(n) == "counter" and n in before and v < before[n])
        if not down:
            continue
        if now.get("Uptime", 1.0) < before.get("Uptime", 0.0):
            why = "server restarted (Uptime went down)"
        elif now.get("Uptime_since_flush_status", 1.0) < before.get("Uptime_since_flush_status", 0.0):
            why = "FLUSH STATUS"
        else:
            why = "counter reset"
        ctx.warn(
            taken[k][1],
            f"{why}: {len(down)} counter(s) went down ({', '.join(down[:4])}); no rate there",
            kind="counter_reset",
        )
