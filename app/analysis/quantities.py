"""What a series measures, whichever tool printed it: one name per physical quantity, so an
explanation lists it once (the other series beside it) and a verdict reads the quantity, not one
tool's column (vmstat `wa`, mpstat `%iowait` of `all`, sar's and dool's `cpu.wai` are one iowait).
"""

from __future__ import annotations

from benchlens.app.model import SeriesRef

# Machine CPU shares as vmstat, iostat (avg-cpu), mpstat, sar and dstat/dool print them.
CPU_SHARES = {
    **dict.fromkeys(("id", "%idle"), "idle"),
    **dict.fromkeys(("us", "%user", "%usr"), "user"),
    **dict.fromkeys(("sy", "%system", "%sys"), "system"),
    **dict.fromkeys(("wa", "%iowait"), "iowait"),
    **dict.fromkeys(("st", "%steal"), "steal"),
    **{"cpu.idl": "idle", "cpu.usr": "user", "cpu.sys": "system", "cpu.wai": "iowait", "cpu.stl": "steal"},
}

# A disk's bytes and a link's bytes as each collector prints them (vmstat's bo and /proc/vmstat's
# pgpgout count every device's writes, sar -b its blocks); the processes in uninterruptible sleep
# (waiting on I/O) and the runnable ones, as vmstat, sar -q, /proc/stat and dstat/dool count them
_WRITES = "vmstat bo, iostat wkB/s, sar wkB/s, sar bwrtn/s, sar pgpgout/s, diskstats wkB/s, procvmstat pgpgout/s"
_READS = "vmstat bi, iostat rkB/s, sar rkB/s, sar bread/s, sar pgpgin/s, diskstats rkB/s, procvmstat pgpgin/s"
_BLOCKED = "vmstat b, sar blocked, procstat procs_blocked, dstat procs.blk"
_RUNNABLE = "vmstat r, sar runq-sz, procstat procs_running, dstat procs.run"


def _pairs(text: str) -> list[tuple[str, str]]:
    return [(f, m) for f, m in (x.split() for x in text.split(", "))]


QUANTITIES = {
    **dict.fromkeys(_pairs(_WRITES + ", dstat dsk.writ"), "disk writes"),
    **dict.fromkeys(_pairs(_READS + ", dstat dsk.read"), "disk reads"),
    **dict.fromkeys((("sar", "rxkB/s"), ("dstat", "net.recv")), "network received"),
    **dict.fromkeys((("sar", "txkB/s"), ("dstat", "net.send")), "network sent"),
    **dict.fromkeys(_pairs(_BLOCKED), "processes blocked"),
    **dict.fromkeys(_pairs(_RUNNABLE), "processes runnable"),
}
# bytes per unit of each disk-bytes column: kB/s (vmstat, iostat, sar, diskstats, pages of 1 kB in
# pgpgin/pgpgout), 512-byte sectors (sar -b bread/bwrtn), bytes (dstat and dool)
BYTES_PER_UNIT = {
    **dict.fromkeys(("bo", "bi", "wkB/s", "rkB/s", "pgpgout/s", "pgpgin/s"), 1024.0),
    **dict.fromkeys(("bwrtn/s", "bread/s"), 512.0),
    **dict.fromkeys(("dsk.writ", "dsk.read"), 1.0),
}
# The server's counters as dstat's and dool's MySQL and InnoDB plugins print them, each with the
# SHOW GLOBAL STATUS counter it reads (importers/_dstat_plugins.py; the `mysql-innodb` plugin's
# names from its own table, dool 1.3.8; DBPA's `mysql5 conn` Conn/Act and `mysql5 all` rows):
# one quantity, and a verdict that reads the counter reads the column where only dool measured it.
_INNODB_PLUGIN = ("MySQL_InnoDB_basic", "MySQL_InnoDB_extra", "MySQL_InnoDB_full")


def _plugin(nick: str) -> tuple[str, ...]:
    return tuple(f"{group}.{nick}" for group in _INNODB_PLUGIN)


SERVER_COLUMNS: dict[str, tuple[str, ...]] = {
    "Bytes_sent": ("mysql5_io.sent",),
    "Bytes_received": ("mysql5_io.recv",),
    "Threads_connected": ("mysql5_conn.ThCon", "mysql5_conn.Conn", *_plugin("thcon")),
    "Threads_running": ("mysql5_conn.ThRun", "mysql5_conn.Act", *_plugin("thrun")),
    "Innodb_row_lock_current_waits": ("mysql5_locks.Locks",),
    "Questions": _plugin("qps"),
    "Com_select": ("mysql5_cmds.sel", *_plugin("sel/s")),
    "Com_insert": ("mysql5_cmds.ins", *_plugin("ins/s")),
    "Com_update": ("mysql5_cmds.upd", *_plugin("upd/s")),
    "Com_delete": ("mysql5_cmds.del", *_plugin("del/s")),
    "Innodb_rows_read": ("innodb_ops.rea", *_plugin("r#read")),
    "Innodb_rows_inserted": ("innodb_ops.ins", "mysql5_all.insert", *_plugin("r#ins")),
    "Innodb_rows_updated": ("innodb_ops.upd", "mysql5_all.update", *_plugin("r#upd")),
    "Innodb_rows_deleted": ("innodb_ops.del", "mysql5_all.delete", *_plugin("r#del")),
    "Innodb_data_reads": ("innodb_io_ops.rea", *_plugin("rdphy")),
    "Innodb_data_writes": ("innodb_io_ops.wri", *_plugin("wrdat")),
    "Innodb_data_fsyncs": ("innodb_io_ops.syn",),
    "Innodb_log_writes": _plugin("wrlog"),
    "Innodb_buffer_pool_read_requests": ("mysql5_all.readr", *_plugin("rdlgc")),
    "Innodb_buffer_pool_reads": ("mysql5_all.reads",),
    "Innodb_buffer_pool_pages_flushed": ("mysql5_all.flushed",),
    "Innodb_buffer_pool_pages_dirty": ("mysql5_all.dirty",),
    "Innodb_buffer_pool_pages_free": ("mysql5_all.free",),
    "Innodb_buffer_pool_pages_data": ("mysql5_all.data",),
    "Innodb_pages_created": ("innodb_pool.crt",),
    "Innodb_pages_read": ("innodb_pool.rea",),
    "Innodb_pages_written": ("innodb_pool.wri",),
}
# a plugin column -> the status counter it reads
STATUS_OF = {("dstat", col): counter for counter, cols in SERVER_COLUMNS.items() for col in cols}
# entities that name the whole machine (the aggregate of its CPUs, disks or links)
MACHINE = frozenset({"", "all", "total", "-1", "ALL"})


def quantity(ref: SeriesRef) -> str:
    """What a series measures, whichever tool printed it. An explanation lists a quantity once
    (vmstat id, iostat %idle, sar's and dstat's idle and mpstat %idle of every CPU all say "the CPUs
    went idle"; vmstat bo, iostat, sar, diskstats, dstat and pgpgout all say "the disks wrote") and
    names the other series that showed it as similar; the top five then holds five different
    things."""
    cpu_column = ref.format in ("vmstat", "mpstat", "sar", "procstat") or (ref.format == "iostat" and not ref.entity)
    cpu_column = cpu_column or (ref.format == "dstat" and ref.entity == "total")
    if cpu_column and ref.metric in CPU_SHARES:
        return "cpu " + CPU_SHARES[ref.metric]
    if (ref.format, ref.metric) in QUANTITIES:
        return QUANTITIES[(ref.format, ref.metric)]
    metric = STATUS_OF.get((ref.format, ref.metric), ref.metric)
    if ref.format in ("innodb_status", "global_status") or metric != ref.metric:
        # pages_written/s and Innodb_pages_written; dool's innodb_pool.wri
        return "innodb " + metric.lower().removeprefix("innodb_").removesuffix("/s") + " " + ref.entity
    return ref.spec()
