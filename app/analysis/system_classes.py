"""The resource class of a system collector's column (sar, pidstat, /proc/stat, /proc/vmstat,
dstat and dool): which resource a change in it speaks of. Without these, every column the
database-name rules of relevance.py do not recognise was "workload": sar's device and network
columns, pidstat's per-process I/O, dool's disk and paging groups.

By what the tools print (sysstat 12.6 man pages, /proc/vmstat, dstat's and dool's plugins):
- sar: its disk reports (-d: tps, rkB/s, areq-sz, %util ...; -b: rtps, bread/s ...; -B's
  pgpgin/s and pgpgout/s, the kB read and written; -F file
  systems; -q blocked; pressure on I/O %sio) are `disk`; memory, paging and swapping (-r, -B, -W,
  -S, -H, %smem/%fmem) `memory`; run queue, load, task creation, context switches, interrupts,
  CPU frequency and CPU pressure `cpu`; kernel tables and serial lines `workload`; every other
  report is a network one (-n DEV, EDEV, IP, ICMP, TCP, ETCP, UDP, SOCK, NFS, SOFT, v4 and v6);
- pidstat: CPU shares and switches `cpu`, kB_rd/s kB_wr/s kB_ccwr/s iodelay `disk`, faults and
  sizes `memory`;
- /proc/stat: blocked processes `disk`, the rest `cpu`; /proc/vmstat: page-in/out and writeback
  `disk`, the rest `memory`;
- dstat/dool: by plugin group, the part of the metric before its last `.` (`dsk.read`,
  `paging.in`; the cpu shares are relevance.is_cpu_share's, `cpu.wai` disk there); dool's MySQL
  plugins too (`mysql5_locks` locks, `mysql5_conn` workload, DBPA's `mysql5_all` by column: buffer
  pool pages and reads, dirty and flushed pages, row operations and commits); a group no rule
  knows is left to the name rules.
"""

from __future__ import annotations

from benchlens.app.model import SeriesRef


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_SAR_DISK = _words(
    """tps rtps wtps dtps bread/s bwrtn/s bdscd/s pgpgin/s pgpgout/s rkB/s wkB/s dkB/s areq-sz aqu-sz
    await %util blocked MBfsfree MBfsused %fsused %ufsused Ifree Iused %Iused %sio %sio-10 %sio-60
    %sio-300 %fio %fio-10 %fio-60 %fio-300"""
)
_SAR_CPU = _words(
    "runq-sz plist-sz ldavg-1 ldavg-5 ldavg-15 proc/s cswch/s intr/s MHz %scpu %scpu-10 %scpu-60 %scpu-300"
)
_SAR_WORKLOAD = _words("dentunusd file-nr inode-nr pty-nr rcvin/s xmtin/s framerr/s prtyerr/s brk/s ovrun/s")
_SAR_MEMORY = ("kb", "%mem", "%commit", "%swp", "%hug", "%smem", "%fmem", "%vmeff", "pswp", "pg", "fault", "majflt")

_PIDSTAT = {
    **dict.fromkeys(("%usr", "%system", "%guest", "%wait", "%CPU", "cswch/s", "nvcswch/s", "CPU"), "cpu"),
    **dict.fromkeys(("kB_rd/s", "kB_wr/s", "kB_ccwr/s", "iodelay"), "disk"),
    **dict.fromkeys(("minflt/s", "majflt/s", "VSZ", "RSS", "%MEM"), "memory"),
}
_VMSTAT_DISK = ("pgpgin", "pgpgout", "nr_dirty", "nr_writeback", "nr_written", "nr_dirtied", "nr_vmscan_write")

# dstat and dool plugin groups (after the device, CPU or interface moved to the entity)
_DSTAT_GROUPS = {
    **dict.fromkeys(("cpu", "total_cpu_usage", "cpu_usage"), "cpu"),
    **dict.fromkeys(("system", "load", "load_avg", "interrupts", "procs"), "cpu"),
    **dict.fromkeys(("dsk", "io", "aio", "async", "filesystem", "disk", "io_total"), "disk"),
    **dict.fromkeys(("net", "tcp", "tcp_sockets", "udp", "raw", "sockets", "unix", "unix_sockets"), "network"),
    **dict.fromkeys(("memory", "memory_usage", "swap", "paging", "virtual_memory"), "memory"),
    **dict.fromkeys(("advanced_virtual_memory", "zones_memory", "vm", "vm_adv", "zones"), "memory"),
}

# dool's MySQL plugins (importers/_dstat_plugins.py): by group, `mysql5 all` by column
_DSTAT_GROUPS |= {"mysql5_locks": "locks", "mysql5_io": "network", "mysql5_key_status": "buffer_pool"}
_DSTAT_GROUPS |= dict.fromkeys(("mysql5_conn", "mysql5_cmds", "innodb_ops"), "workload")
_DSTAT_GROUPS |= {"innodb_pool": "buffer_pool", "innodb_io_ops": "disk"}
_MYSQL5_ALL = {
    **dict.fromkeys(("data", "free", "readr", "reads", "ratio"), "buffer_pool"),
    **dict.fromkeys(("dirty", "flushed"), "flushing"),
    **dict.fromkeys(("insert", "update", "delete", "comm", "roll", "size", "grow"), "workload"),
}


def system_class(ref: SeriesRef) -> str | None:
    """The class of a system collector's series, None when these rules do not place it."""
    m = ref.metric
    if ref.format == "sar":
        if m in _SAR_DISK:
            return "disk"
        if m in _SAR_CPU:
            return "cpu"
        if m in _SAR_WORKLOAD:
            return "workload"
        return "memory" if m.lower().startswith(_SAR_MEMORY) else "network"
    if ref.format == "pidstat":
        return _PIDSTAT.get(m)
    if ref.format == "procstat":
        return "disk" if m == "procs_blocked" else "cpu"
    if ref.format == "procvmstat":
        return "disk" if m.startswith(_VMSTAT_DISK) else "memory"
    if ref.format == "dstat" and "." in m:
        group, column = m.rsplit(".", 1)
        group = group.lower().replace(" ", "_").replace("/", "_")
        if group == "procs" and column == "blk":
            return "disk"  # blocked on I/O
        if group == "mysql5_all":
            return _MYSQL5_ALL.get(column)
        return _DSTAT_GROUPS.get(group)
    return None
