"""What a series' change means: its resource class, whether it can be evidence at all, and how much
the change matters in absolute terms (its importance, 0..1).

An effect size alone ranks surprise: a nanosecond-scale mutex average that goes 0.010 -> 0.100 µs
is as "surprising" as a disk going 8 -> 91 %util. The explanation ranks effect x importance, where
importance is measured in the quantity's own absolute terms:

- CPU shares (vmstat, mpstat, iostat avg-cpu): percentage points moved, out of `cpu_points`;
- device utilisation (%util): points moved, out of `util_points`;
- Performance Schema wait time (SUM_TIMER_WAIT): the change as a share of the run's total wait
  time, out of `wait_share`, and in sessions' worth of waiting (`wait_ms` per second), whichever is
  smaller; an event's count and average weigh as its wait time does, at `other`;
- everything else: the change against what the series did elsewhere in the run (its 99th
  percentile outside the window), a device's or link's load (DEVICE_LOAD) fully, other counters
  at `other`.

Never evidence: high-water marks (`*_max`, `Max_used_*`: a peak that stepped once and stayed says
nothing about a window), monotone counters stored as values (Uptime), and idle or background waits
(app/analysis/idle.py's editable list: a thread waiting for its next query, a timer, a sleeping
service thread).
"""

from __future__ import annotations

from dataclasses import dataclass

from benchlens.app.analysis.idle import is_idle_wait
from benchlens.app.analysis.quantities import BYTES_PER_UNIT
from benchlens.app.analysis.system_classes import system_class
from benchlens.app.model import SeriesRef

CLASSES = (
    "cpu",
    "disk",
    "memory",
    "network",
    "locks",
    "latches",
    "redo",
    "flushing",
    "purge",
    "buffer_pool",
    "workload",
)


@dataclass(frozen=True)
class RelevanceParams:
    # percentage points of CPU that weigh fully: a hog taking a third of a 2-CPU machine moves
    # system CPU by 30-36 points; chosen by hand, not measured
    cpu_points: float = 20.0
    # %util points that weigh fully; chosen by hand, not measured
    util_points: float = 30.0
    # share of the total wait time a change must be to weigh fully; chosen by hand, not measured
    wait_share: float = 0.25
    # ... and ms of wait per second it must add: 1000 is one session waiting all the time (a
    # latch wait that is most of a run's little wait time still costs its sessions ~1%)
    wait_ms: float = 1000.0
    # weight of counters without an absolute scale of their own (statement counts, handler calls,
    # gauges): they count, but a CPU, disk or wait change of the same surprise ranks above them
    other: float = 0.5
    # weight of a wait event's count or average when its wait time is not known
    lone_wait: float = 0.2
    # the least a device's reads or writes must change to weigh fully, whatever the device did
    # elsewhere (kB/s, requests/s): during a 45 s global read lock of tests/fixtures/diagnosis
    # reads went 24 -> 165 kB/s, "7x the rest of the run" and still nothing; chosen by hand
    device_kb: float = 1024.0
    device_requests: float = 50.0


RELEVANCE = RelevanceParams()
CPU_METRICS = {"us", "sy", "id", "wa", "st", "%user", "%usr", "%sys", "%system", "%idle", "%iowait", "%steal"}
CPU_METRICS |= {"%nice", "%irq", "%soft", "%guest", "%gnice"}
# statements that take a global or table lock: one in a window where there were none is evidence
# of the lock itself (without the metadata-lock instrument, a global read lock leaves only this)
LOCK_STATEMENTS = {"Com_flush", "Com_lock_tables", "Com_backup", "Com_backup_lock"}
# lock wait time as ms per second (global_status rates of *_lock_time counters)
LOCK_TIME = {"Innodb_row_lock_time", "Table_locks_waited_time"}
# what a device or link does for the server: its reads and writes, their latency, its queue (discards,
# merges and request sizes are not load by themselves)
DEVICE_LOAD = {"wkB/s", "rkB/s", "w/s", "r/s", "r_await", "w_await", "aqu-sz", "rxkB/s", "txkB/s"}


def is_evidence(ref: SeriesRef) -> bool:
    """Whether a change of this series can explain anything."""
    m = ref.metric
    if (
        m.endswith("_max")
        or "_max_" in m
        or m.startswith(("Max_used", "max_"))
        or m in ("Uptime", "Uptime_since_flush_status")
    ):
        return False
    return not (ref.format in ("perfschema", "innodb_mutex") and is_idle_wait(ref.entity))


# dstat's, pcp-dstat's and dool's cpu group (per CPU or `total`): the same shares
DSTAT_CPU = {"cpu.usr", "cpu.sys", "cpu.idl", "cpu.wai", "cpu.stl", "cpu.hiq", "cpu.siq", "cpu.nic", "cpu.gst"}


def is_cpu_share(ref: SeriesRef) -> bool:
    if ref.format == "dstat":
        return ref.metric in DSTAT_CPU
    cpu_column = ref.format in ("vmstat", "mpstat", "procstat", "sar") or (ref.format == "iostat" and not ref.entity)
    return cpu_column and ref.metric in CPU_METRICS


def importance(
    ref: SeriesRef,
    delta: float,
    elsewhere: float,
    wait_total: float,
    wait_of_entity: float | None = None,
    params: RelevanceParams = RELEVANCE,
) -> tuple[float, float]:
    """(importance 0..1, strength) of a change of `delta`: strength is the change in the quantity's
    own absolute unit (CPU points / cpu_points, share of the wait time / wait_share, multiples of
    what the series did elsewhere), importance its weight times min(1, strength). `elsewhere`: the
    series' typical high outside the window (99th percentile of |value|); `wait_total`: the run's
    total Performance Schema wait time (ms/s); `wait_of_entity`: the change of this event's wait
    time, for its count and average."""
    d = abs(delta)
    weight = 1.0
    if is_cpu_share(ref):
        strength = d / params.cpu_points
    elif ref.metric == "%util":
        strength = d / params.util_points
    elif ref.metric.startswith("%"):  # other shares (merged requests, discards): points, at `other`
        weight, strength = params.other, d / params.cpu_points
    elif ref.format == "perfschema":
        # an event's count and average weigh as its wait time does, at `other`: the wait time is
        # the evidence (a longer average over fewer waits may be no more time waited)
        wait = d if ref.metric == "SUM_TIMER_WAIT" else abs(wait_of_entity) if wait_of_entity is not None else None
        if wait is None or wait_total <= 0:
            return params.lone_wait, 0.0
        weight = 1.0 if ref.metric == "SUM_TIMER_WAIT" else params.other
        strength = min(wait / (params.wait_share * wait_total), wait / params.wait_ms)
    elif ref.metric in LOCK_TIME:  # ms of lock wait per second: sessions' worth of waiting
        strength = d / params.wait_ms
    else:
        full = ref.metric in DEVICE_LOAD or ref.metric in LOCK_STATEMENTS
        full = full or (ref.format == "vmstat" and ref.metric in ("bi", "bo", "r", "b"))
        weight = 1.0 if full else params.other
        floor = _device_floor(ref, params)
        elsewhere = max(elsewhere, floor)
        # from nothing (0 everywhere else): its change in its own units, one of them as much as its
        # whole level; a socket count at 0 -> 0.3 on average is not (a DBPA capture's tcp.clo then
        # led every window's evidence at full strength)
        strength = d / elsewhere if elsewhere > 0 else min(1.0, d)
    return weight * min(1.0, strength), strength


# a device's bytes a second as each collector prints them, and the bytes in one of their units
# (quantities.BYTES_PER_UNIT: kB/s and vmstat's bi/bo, sar -b's 512-byte blocks, dstat's and dool's
# bytes; and a link's), and its requests a second (iostat, sar -d; sar -b; dstat's and dool's --io)
_DEVICE_BYTES = {
    **BYTES_PER_UNIT,
    **dict.fromkeys(("dkB/s", "rxkB/s", "txkB/s"), 1024.0),
    **dict.fromkeys(("net.recv", "net.send"), 1.0),
}
_DEVICE_REQUESTS = {"r/s", "w/s", "d/s", "f/s", "rtps", "wtps", "dtps", "io.read", "io.writ"}


def _device_floor(ref: SeriesRef, params: RelevanceParams) -> float:
    """device_kb or device_requests in the series' own unit, whichever collector printed it: one
    quantity weighs the same from every tool (a dool capture's reads, 0 -> 42.6 kB/s over a
    FLUSH TABLES loop, led held-out dool-flush-tables-long-smooth's evidence as "the disk" where
    iostat's rkB/s of the same reads weighs 4 %)."""
    if ref.metric in _DEVICE_BYTES:
        return params.device_kb * 1024.0 / _DEVICE_BYTES[ref.metric]
    if ref.metric in _DEVICE_REQUESTS:
        return params.device_requests
    return 0.0


# (class, words in the metric or entity name, case-insensitive), first match wins
_NAME_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "locks",
        ("mdl", "row_lock", "lock_wait", "table_lock", "global_read_lock", "com_flush", "wait/lock/", "lock_time"),
    ),
    ("purge", ("history_list", "purge")),
    ("redo", ("log_bytes", "checkpoint", "os_log", "innodb_log", "log_write", "fsync", "log_file", "redo", "lsn")),
    ("flushing", ("dirty", "flushed", "pages_written", "modified_db_pages", "dblwr", "doublewrite", "page_cleaner")),
    ("buffer_pool", ("buffer_pool", "free_buffers", "pages_read", "database_pages", "buf_pool", "pages_free")),
    (
        "latches",
        ("wait/synch/mutex", "wait/synch/rwlock", "wait/synch/sxlock", "mutex", "rw_lock", "rw-", "semaphore", "spin"),
    ),
    ("network", ("bytes_sent", "bytes_received", "rxkb", "txkb", "rxpck", "txpck", "retrans")),
    ("memory", ("swap", "memfree", "memavailable", "pgfault", "majflt", "qcache")),
    (
        "workload",
        ("threads_", "connections", "com_", "questions", "queries", "handler_", "innodb_rows", "thds", "select"),
    ),
)


def class_of(ref: SeriesRef) -> str:
    """The resource class of a series (CLASSES)."""
    if is_cpu_share(ref):
        return "disk" if ref.metric in ("wa", "%iowait", "cpu.wai") else "cpu"
    if ref.format in ("iostat", "diskstats") or (ref.format == "vmstat" and ref.metric in ("bi", "bo", "b")):
        return "disk"
    if ref.format in ("vmstat", "mpstat", "procstat") and ref.metric in ("r", "in", "cs", "intr/s", "cswch/s"):
        return "cpu"
    if ref.format == "vmstat" and ref.metric in ("swpd", "free", "buff", "cache", "si", "so", "inact", "active"):
        return "memory"
    if ref.format == "meminfo":
        return "memory"
    system = system_class(ref)
    if system is not None:
        return system
    name = f"{ref.metric} {ref.entity}".lower()
    for cls, words in _NAME_RULES:
        if any(w in name for w in words):
            return cls
    if ref.format == "perfschema" and "/io/file/" in ref.entity:
        return "disk"
    if ref.format == "perfschema" and "wait/synch/cond" in ref.entity:
        return "locks"
    return "workload"
