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
    if ref.format in ("innodb_status", "global_status"):  # pages_written/s and Innodb_pages_written
        return "innodb " + ref.metric.lower().removeprefix("innodb_").removesuffix("/s") + " " + ref.entity
    return ref.spec()
