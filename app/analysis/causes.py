"""The causes a verdict can prove, each from the series that show it, in their own units. A cause
gives a `Finding`: its resource class (app/analysis/relevance.py's vocabulary) and one line.

- another client's work, upstream of everything it slows (issue #23: what started, before what piled
  up): rows read by full scans and bytes sent (a scan or a dump), rows written and redo (bulk
  writes) far above what the server's own throughput explains; where the capture counts no rows
  (dool on MariaDB), a session that came with user CPU that work does not explain, or with a burst
  of disk writes (session_came, disk_burst);
- a flushing stall: checkpoint age at InnoDB's sync flush point (app/analysis/innodb.py), or
  dirty pages pinned at innodb_max_dirty_pages_pct;
- lock waits: metadata / global read lock wait time, FLUSH TABLES or LOCK TABLES seen, row lock
  time grown several-fold; sessions stuck in row-lock waits that stopped ending;
- purge lag: the history list length growing to several times its level;
- the workload: the server doing much more work for more sessions than in its steady state;
- a deadlock storm: sessions rolled back on deadlocks several times more than in the steady state;
- a buffer pool that shrank, with the reads it causes;
- another writer (or reader) on a disk: a device's bytes up many-fold while InnoDB's own writes
  stayed a small part of them; a device busy without a burst of bytes; a device's requests that the
  server's own writes, syncs or reads do not account for (app/analysis/foreign_io.py);
- one core saturated while the machine's average is not (a single-threaded bottleneck, network
  interrupts on one core: app/analysis/imbalance.py), its busy share up CPU_POINTS at least;
- CPU taken by another process (system CPU) or by other work (user CPU: a process, or another
  client's queries): CPU points up;
- the clients' round trips slowed (a congested or distant network, slow clients): the server's
  commits fell while its sessions, CPU and disks idled and each transaction's bytes held.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from benchlens.app.analysis import imbalance
from benchlens.app.analysis.evidence import Change, Evidence, human, span
from benchlens.app.analysis.innodb import (
    CHECKPOINT_AGE,
    MAX_AGE,
    MAX_DIRTY_DEFAULT,
    PAGE,
    from_max_checkpoint_age,
    server_of,
)
from benchlens.app.analysis.quantities import BYTES_PER_UNIT, MACHINE, STATUS_OF, quantity
from benchlens.app.analysis.server_rate import DOOL_STATEMENTS
from benchlens.app.model import SeriesRef

GS = "global_status"
# dool's statements summed (_dool_statements): the server's own work where it counts no commits
OWN_STATEMENTS = SeriesRef("dstat", "statements")
# a checkpoint age this close to the sync point sits at it (the level is a mean over the window)
AT_SYNC = 0.9
# a server at its sync flush point whose page cleaner wrote this share of its steady rate or less
# over a drop flushed worse with it (causes._flushing_worse). bench/rules_null.py (FLUSHED_FELL):
# of its 897 null stretches, 291 sat at the sync point before (the writes workload, the TPC-C-like
# mixes) and none fell below x0.74 (where the cleaner has room it writes in bursts: half the other
# stretches fell to 0.5 or less); the throttled cleaners' windows x0.10-0.25 pass from 0.25 to
# 0.625, the other classes' windows 7 at 0.5, 2 at 0.375, none of whose verdicts it decides (it is
# tried after theirs); a CPU hog's server x0.70. 0.5 lies between the two (their geometric mean
# is 0.43)
FLUSHED_FELL = 0.5
# lock wait that stalls sessions, ms per second (1000: one session waiting all the time) ...
LOCK_WAIT_MS = 500.0
# ... and how many times its steady level it must be: on a workload that always waits on row locks
# (bursty, 25 s/s of row lock time) a CPU hog moved it 25 -> 27 s/s, a symptom, not the cause
LOCK_RATIO = 2.0
# ... or, on a workload bound by its row locks all along (32 TPC-C-like clients on 2 warehouses:
# 24 s of row lock time a second), this many times its steady level and beyond its own wander
# (EXTRA_EFFECT) while the CPU idled (CPU_POINTS, certain) and the sessions running piled up
# (_piled): nothing took the CPU, more sessions waited inside. Slowed clients stretch their lock
# holders' transactions and idle the CPU too, but their sessions wait outside, not running
# (held-out net-slow-long-tpcc read as this without the pile-up). The ratio is the size
# floor (10 %); the certainty keeps the null: bench/rules_null.py (ROW_LOCK_RISE) reads no null
# stretch passing it at any ratio (0 of 731), and over 1,622 (--per-run 100) the row lock time
# rose x1.07 at most, 1.4 of its standard errors (the bursty and churn workloads' quiet runs)
ROW_LOCK_RISE = 1.1
# sessions stuck on row locks: this share of the running sessions in a row-lock wait, while the
# waits that end fell to this share of their steady rate (a lock held by one transaction: nothing
# is granted, nothing times out); chosen by hand, not measured
STUCK_SHARE, STUCK_ENDED = 0.5, 0.1
# the server's work (queries, commits) this many times its steady level, or this many more
# sessions connected, is a heavier workload: another client's load, not a resource's fault
WORK_RATIO, MORE_SESSIONS = 1.5, 4.0
# sessions connected this many times their steady level is material (the size floor drops used
# when it was set, drops.Sensitivity.floor 0.2; 0.15 since session 30), with MORE_SESSIONS more
# and certain (EXTRA_EFFECT sigmas)
SESSIONS_RATIO = 1.2
# a device's bytes: up this many times and by this much (B/s) is a burst; InnoDB's own writes under
# this share of it leave another writer
BURST_RATIO, BURST_BYTES, OWN_SHARE = 3.0, 10e6, 0.25
# CPU time waiting on I/O this many times its steady level is material (the size floor drops used
# when it was set, drops.Sensitivity.floor 0.2), and certain at EXTRA_EFFECT standard errors of its
# own wander over stretches as long as the window (Evidence.beyond_noise); the disks' bytes under
# it did not grow as much: the waits are not more work done. DBPA's I/O saturation (`stress-ng
# -i 4`, sync() in a loop) put iowait at 1.29-1.98x with 5.9-19.8 sigmas and the bytes written
# down 0.6-0.8x; no case of its six other window types reached both (heavy workload case-002 came
# closest: 1.25x, 5.0 sigmas). bench/rules_null.py: 519 stretches of runs with nothing injected
# pass the ratio and the certainty 35 times (the flush-log pair's fsyncs 16 of them) where the
# window's robust sigmas (the samples taken as independent) passed 96
IOWAIT_RATIO = 1.2
# CPU points that say a process took the CPU (or that the CPU idled), beyond the share's own wander
# as IOWAIT_RATIO's (_moved): of the 519 null stretches, 35 rose 8 points (27 of them the
# rate-limited quiet run's, whose user CPU swings 18-19 points over tens of seconds), 2 beyond
# that wander too; every window of the CPU's class that rose 8 points still does
CPU_POINTS = 8.0
# what took user CPU: the machine's counters do not tell a process from another client's queries
OTHER_WORK = "CPU taken by other work (another process, or another client's queries)"
# history list growth that is a purge lag: this many times its level, and at least this many. On
# the recorded corpus (bench/drop_quality) a read view held over the churn workload grew it by
# 2,216 and 3,785 during the drops it caused (throughput collapsed near 3,900); the largest growth
# in a drop of another cause was 1,477 (a flushing stall: updates waiting)
PURGE_RATIO, PURGE_MIN = 3.0, 2000.0
# %util points that make a busy device
UTIL_POINTS = 30.0
# dirty pages within this many points of the page cleaner's limit are pinned at it
DIRTY_POINTS = 2.0
# a buffer pool under this share of its steady size shrank
POOL_SHRANK = 0.8
# deadlocks: this many times their steady rate and this many more a second is a deadlock storm. On
# the recorded churn workload (32 sessions on 10 rows) one went 529 -> 897 /s for 11 s with
# nothing injected (sessions rolled back, 650 -> 220 tps, user CPU +11 points: the server's own
# retries, which read as another process's CPU before); in every injected drop of the corpus the
# deadlocks fell (0.3-0.7x); chosen by hand on those
DEADLOCK_RATIO, DEADLOCK_MIN = 1.5, 10.0
# another client's work: a work counter this many times its steady level, and per commit (the
# benchmark's own work moves with its commits), and certain (the explanation's effect
# cap, 5 robust sigmas). On bench/drop_quality a mysqldump loop ran 54x the full scans and 2.4x
# their rows, INSERT ... SELECT copies wrote 55x the rows and 12x the redo (commits at 0.64 and
# 0.56); in the other 39 runs' drops no such counter rose above 1.19x (small-pool's full scans,
# 3.7 sigmas); a 16-client spike wrote 6.3x the rows with commits up (the workload: not this
# cause). Chosen on those runs, not measured beyond them
EXTRA_RATIO, EXTRA_EFFECT = 1.5, 5.0
# (counter, what it counts, group) of the work another client adds: scans and dumps, joins without
# an index, bulk writes (status counter, what it counts, group), read from a status loop or the dstat/dool plugin
# column that read it (Evidence.server)
FOREIGN_WORK = (
    ("Handler_read_rnd_next", "rows read by full scans", "scan"),
    ("Select_scan", "full scans", "scan"),
    ("Bytes_sent", "bytes sent to clients", "scan"),
    # a join that reads a table whole for each row of another (no index to look it up): a poorly
    # written query (MySQL's manual: if not 0, check the tables' indexes); none in any benchmark of
    # the recorded corpus
    ("Select_full_join", "joins without an index", "join"),
    ("Handler_write", "rows written", "write"),
    # the rows a client sends to be written (a restore's INSERTs), where no row count is read: dool's
    # InnoDB row counters are 0 on MariaDB, its bytes received are not (dool-restore-long-smooth:
    # 1.2 -> ~11 MB/s, commits at 0.65)
    ("Bytes_received", "bytes received from clients", "write"),
    ("Innodb_rows_inserted", "rows inserted", "write"),
    ("Innodb_os_log_written", "redo written", "write"),
)


def _own_work(ev: Evidence) -> Change | None:
    """The server's own throughput, whose ratio says how much of a counter the benchmark explains:
    its commits, else its statements (a status loop's, else dool's: DBPA's commits per interval,
    the mysql-cmds plugin's selects, else its four statements summed, as the server's rate sums
    them: a write-only workload sends no selects)."""
    found = (
        ev.server("Com_commit"),
        ev.server("Questions"),
        ev.get("dstat", "mysql5_all.comm"),
        ev.server("Com_select"),
    )
    return next((c for c in found if c is not None and c.before > 0), None) or _dool_statements(ev)


def _dool_statements(ev: Evidence) -> Change | None:
    """dool's statements a second (server_rate.DOOL_STATEMENTS) summed, the effect the largest part's
    (held-out dool-restore-long-durable, writes only: no selects, so no measure of the server's own
    work, and a restore's bytes received x7.6 read as the user CPU it took)."""
    parts = [c for r in DOOL_STATEMENTS if (c := ev.get(r.format, r.metric, r.entity)) is not None]
    before = sum(c.before for c in parts)
    if before <= 0:
        return None
    main = max(parts, key=lambda c: c.before)
    return Change(OWN_STATEMENTS, main.change, before, sum(c.during for c in parts))


def _work_name(own: Change) -> str:
    """What _own_work counted, as a verdict says it."""
    counter = STATUS_OF.get((own.ref.format, own.ref.metric), own.ref.metric)
    return {"Questions": "statements", "Com_select": "selects", OWN_STATEMENTS.metric: "statements"}.get(
        counter, "commits"
    )


def _work_went(own: Change) -> str:
    """Where the server's own work went, as a verdict says it: "commits went to 47% of their steady
    rate"."""
    return f"{_work_name(own)} went to {own.during / own.before:.0%} of their steady rate"


def own_work_name(ev: Evidence) -> str | None:
    """_work_went of the server's own work, None where no throughput of the server is measured."""
    own = _own_work(ev)
    return _work_went(own) if own is not None else None


# the server's work at this share of its steady rate or more has held: more sessions then are load
# come to it, not sessions piling up on a slowdown. Chosen by hand: DBPA's heavy workloads (23-59
# more sessions) ran their commits at 0.45-1.28 of the steady rate, 6 of 12 at 0.9 or more; the
# recorded corpus' fixed-thread benchmarks never connect more sessions, so it does not calibrate it
WORK_HELD = 0.9


# the clients' round trips slowed: commits at this share of their steady rate or less, the bytes
# each statement (else transaction) sends and receives within this factor of their steady level
# (the same work, slower), sessions running at most their steady level (none pile up inside the
# server). On
# bench/drop_quality a proxy holding each reply 2 ms (net-slow-*) ...; chosen by hand on those runs
NET_FELL, BYTES_HELD = 0.8, 1.25
# ... or bytes beyond the work's share under this fraction of the steady bytes: no client's traffic
# that small slowed the server. At a standstill the per-transaction bytes are the monitoring's own
# (dool's status queries, ~1 kB/s, against 450 kB/s at 0.2 % of the work: x1.3 per select on
# held-out dool-net-congest-long-smooth); a dump or a load adds megabytes. The size floor
BYTES_MATERIAL = 0.1
# sessions running this many times their steady level, and PILED_MORE more, piled up inside the
# server. Calibrated by bench/gauge_null.py (--per-run 100): over 1,204 stretches of 5-40 s of the
# runs where nothing was injected (every workload, DBPA's normal cases) the gauge rose x1.88 and
# +1.86 sessions at its 99th percentile by itself. The rule: at most 1 % of those stretches called
# piled up, and none of the 22 slowed clients' windows. PILED_MORE 2 is the smallest that keeps it
# (6 of 1,204; 1.5 calls 23); PILED 1.25 passes the same lock windows as 1.5 (the larger kept, the
# null being a sample). Two more, not MORE_SESSIONS (four): a benchmark of four threads has only
# four to pile up (held-out dool-global-read-lock-long-smooth, dool-row-lock-long-smooth: 3 -> 5.95
# and 2.5 -> 6).
PILED, PILED_MORE = 1.5, 2.0
# ... or rose by RUNNING_HELD to ALL_INSIDE of the sessions connected or more: every client inside
# the server (dool-row-lock-long-bursty, dool-table-lock-long-bursty, dool-global-read-lock-long-bursty:
# 30 -> 34 of 37 under locks; the network runs' 27 -> 25.5 fell). The same null and rule: 7 of 1,204
# stretches with PILED's (1.05 and 0.9 call 13, 1.0 and 0.95 call 20). 1.05 and 0.95 keep the rule
# too (9) and pass more lock windows (51 of 66 against 46), none of whose verdicts changes, but lose
# the three bursty lock runs above (34 running of 37 connected, 0.918: the lock's holder and the
# monitors are connected too): score.py's class first 187 -> 184 of 213
RUNNING_HELD, ALL_INSIDE = 1.1, 0.9
# ... or rose by RUNNING_HELD and this many standard errors of the gauge's own wander over stretches
# as long as the window (Evidence.beyond_noise), with MOST_INSIDE of the sessions connected
# running: more inside the server than outside it. The same null (bench/gauge_null.py --per-run
# 100, 1,622 stretches) and rule: 5 calls 17 (1.05 %), 6 calls 12 (0.74 %, 5 more than the two
# rules above alone), 8 calls 12. Its tail is a level's artefact: a window's mean against the
# steady state's median, 2 sessions where the gauge's mean is 3.3 (quiet-1: 13 sigmas). No slowed
# clients' window passes at 3 (their rise is at most 2.6 of them)
PILED_SIGMAS, MOST_INSIDE = 6.0, 0.5
# ... or the sessions' time idle between statements fell to this share of its steady level, by
# PILED_SIGMAS standard errors (_held). The same null (bench/gauge_null.py, its IDLE_HELD rows; 724
# of the stretches have the performance schema's idle time) and rule: 0.25, 0.5 and 0.75 call none
# of them and pass the same 40 of 52 lock windows; 0.5 and 0.75 pass a slowed clients' window at
# 3-5 standard errors, and net-congest-long-churn's drop (clients slowed on a workload whose
# sessions wait on each other's row locks: 0.39 of its idle time, 6.0 of them) at 6: the
# strictest, 0.25, kept
IDLE_HELD = 0.25
# (counter, collector) of TCP retransmits, said when the folder has them and they rose
RETRANSMITS = (("sar", "retrans/s"), ("nstat", "TcpRetransSegs"), ("procnet", "RetransSegs"))


class Finding(NamedTuple):
    klass: str
    text: str
    # the series that shows the cause itself, with its steady and drop levels: when it was at its
    # drop level is the cause's own window (app/analysis/mechanism.py); None where the series
    # sits near its drop level in the steady state too
    key: Change | None = None
    # the key series' limit, when the cause is its staying at it (a checkpoint age at the sync
    # flush point, which it sits just under in the steady state): the window is where it stays
    limit: float | None = None
    # the key is a gauge, its value at one instant (sessions connected, the history list, a pool's
    # size), not a mean over its interval: its samples are less alike from one to the next
    # (app/analysis/level_test.py sample_phi), which its test (app/analysis/confirm.py) counts
    gauge: bool = False
    # the key counts statements issued (another client's FLUSH TABLES): it says that the cause
    # happened, and confirms it, not how long it lasted (one FLUSH TABLES WITH READ LOCK, a lock
    # held 8 s): its window is only where a loop of them was counted sample after sample
    # (app/analysis/mechanism.counted_window)
    event: bool = False
    # how many series the key was chosen among (a confirmation's Bonferroni factor): 0 for every
    # entity of its metric (the CPU or the device that moved most), 1 for an entity the cause names
    # (the sessions' wait for their clients' next statement: perfschema's `idle`, one of its 117
    # events, which the factor of every event's count kept from confirming net-slow-short-churn)
    looks: int = 0
    # other series the cause itself shows in (another process's syncs: the system CPU they spend
    # beside the CPUs' iowait), tried with the key to confirm a drop, the factor counting each
    # (app/analysis/run_drops._cause_confirms); never its window, which is the key's
    also: tuple[Change, ...] = ()
    # where no one series is the cause (a verdict inferred from what rose and what idled: sessions
    # piled up inside the server while its CPUs idled), the series it was read from: shown with the
    # verdict (first in what changed, the proof panel), confirming nothing and giving no window
    shows: tuple[Change, ...] = ()

    def proof(self) -> tuple[Change, ...]:
        """The series that prove the verdict, to show with it: its key, else the series it was
        inferred from."""
        return (self.key,) if self.key is not None else self.shows


def flushing_stall(ev: Evidence) -> Finding | None:
    """The checkpoint age went to the sync flush point with the drop: every write waits for the
    page cleaner (an InnoDB flushing stall)."""
    got = _at_sync(ev)
    if got is None or got[0].before >= AT_SYNC * got[1]:
        return None
    # it went there: its level in the window nearer the point than the steady level it left, not
    # an age that sat just under the point and crossed the line (held-out hot-rows-short-tpcc:
    # 72.2 -> 73.2 MB of 80.8, a server running near its flushing bound; flushing-long-writes,
    # the redo log shrunk: 11.5 -> 12.5 MB of 12.9)
    age, sync = got
    return _flushing(age, sync) if sync - age.during < age.during - age.before else None


def flushing_standing(ev: Evidence) -> Finding | None:
    """The checkpoint age at the sync flush point during the drop and in the steady state before
    it: a server that runs flushing-bound. No change of its own, so tried after what another
    process takes (a disk, the CPU): held-out cpu-user-long-writes and disk-writers-long-writes
    (the writes workload, its age at 12.1-12.3 MB of 12.9 before) were named flushing stalls as
    recorded, the CPU hog and the other writer upstream of them; a throttled page cleaner, with
    nothing else moving, is still this (flushing-long-writes-2: 12 MB before, 12.8 during, its
    system CPU up 19 points: the throttled cleaner's single-page flushes, tried after this)."""
    got = _standing(ev)
    if got is None:
        return None
    # an age that fell away from the sync point flushed less during the drop: not what held it
    # (held-out net-slow-long-writes, its clients slowed: 12.3 -> 11.8 MB)
    if got[0].during < got[0].before:
        return None
    return _flushing(*got) if _flushing_worse(ev, got[0]) else None


def _flushing_worse(ev: Evidence, age: Change) -> bool:
    """A server that ran at its sync flush point flushed worse with the drop: the page cleaner's
    writes (Innodb_buffer_pool_pages_flushed) fell to FLUSHED_FELL of their steady rate or less,
    or the age rose beyond its own wander (_certain). A state that held as it was is no cause:
    held-out cpu-system-early-tpcc32 (a kernel CPU hog from 15 s on 32 TPC-C-like clients, their
    age at 75.6 of 80.8 MB before, 77.9 during: 0.8 standard errors; pages flushed 325 -> 228 a
    second, x0.70) was named a flushing stall; the throttled cleaners of the flushing runs wrote
    x0.10-0.25 of their steady rate."""
    flushed = _flushed_share(ev)
    return (flushed is not None and flushed <= FLUSHED_FELL) or _certain(ev, age)


def _flushed_share(ev: Evidence) -> float | None:
    """The page cleaner's writes over the window against their steady rate (None unmeasured)."""
    flushed = ev.get(GS, "Innodb_buffer_pool_pages_flushed")
    return flushed.during / flushed.before if flushed is not None and flushed.before > 0 else None


def standing_flushed(ev: Evidence) -> float | None:
    """_flushed_share where the checkpoint age sat at the sync flush point before the window
    (flushing_standing's state): bench/rules_null.py's quantity for FLUSHED_FELL."""
    return _flushed_share(ev) if _standing(ev) is not None else None


def _standing(ev: Evidence) -> tuple[Change, float] | None:
    """_at_sync's age and sync point where the age sat at the point before the window too."""
    got = _at_sync(ev)
    return got if got is not None and got[0].before >= AT_SYNC * got[1] else None


def _at_sync(ev: Evidence) -> tuple[Change, float] | None:
    """The checkpoint age and the sync flush point's age, when the age sat at it during the drop."""
    age = next((c for r in CHECKPOINT_AGE if (c := ev.levels.get(r)) is not None), None)
    top = ev.get(MAX_AGE.format, MAX_AGE.metric)
    if age is None or top is None or top.during <= 0:
        return None
    sync = from_max_checkpoint_age(top.during, server_of(set(ev.levels))).sync_age
    return (age, sync) if age.during >= AT_SYNC * sync else None


def _flushing(age: Change, sync: float) -> Finding:
    return Finding(
        "flushing",
        f"checkpoint age at the sync flush point ({human(age.during, 'B')} of {human(sync, 'B')}; "
        f"{human(age.before, 'B')} before): an InnoDB flushing stall",
        age,
        sync,
        gauge=True,
    )


def dirty_pinned(ev: Evidence) -> Finding | None:
    dirty, total = ev.get(GS, "Innodb_buffer_pool_pages_dirty"), ev.get(GS, "Innodb_buffer_pool_pages_total")
    if dirty is None or total is None or total.during <= 0:
        return None
    limit = MAX_DIRTY_DEFAULT[server_of(set(ev.levels))]
    pct, was = 100 * dirty.during / total.during, 100 * dirty.before / max(total.before, 1.0)
    if pct < limit - DIRTY_POINTS or was >= limit - DIRTY_POINTS:
        return None
    at = f"at the page cleaner's limit ({limit:.0f} %)"
    said = f"dirty pages {was:.0f} \u2192 {pct:.0f} % of the pool, {at}: a flushing stall"
    return Finding("flushing", said, shows=(dirty,))


def _grew(c: Change, by: float) -> bool:
    """Lock wait time that grew by `by` ms/s and to several times its steady level."""
    return c.during - c.before >= by and c.during >= LOCK_RATIO * c.before


def _more_waited(ev: Evidence, row: Change, rise: float = ROW_LOCK_RISE) -> bool:
    """Row lock time that grew by LOCK_WAIT_MS, by `rise` of its steady level and beyond its own
    wander (_certain): a workload that waited on its row locks all along waited more (held-out
    hot-rows-long-tpcc32, the mix turned to one district: 24.0 -> 29.8 s/s, 36 standard errors,
    while the CPU idled 7 -> 46 % and running sessions went 29 -> 32.3 of 33.6 connected). `rise`
    for bench/rules_null.py."""
    return row.during - row.before >= LOCK_WAIT_MS and row.during >= rise * row.before and _certain(ev, row)


def foreign_work(ev: Evidence) -> Finding | None:
    """Another client's scans or writes: work counters far above their steady level, and as far
    per commit of the server. The benchmark's own work moves with its commits, whether a slowdown
    makes them fall, a rate limit holds them (a latency rise) or more of its clients make them rise
    (a workload spike: rows and commits x6.3 together); a counter that rose beyond them is work
    someone else added (a dump, a bulk load), which comes before the locks, flushing and queues it
    then causes. (It needed the commits to fall before: a rate-limited run's commits, held at
    100 %, stood on a hair; every verdict of the corpus and DBPA is the same.)"""
    own = _own_work(ev)
    if own is None:
        return None
    shown = _extra_work(ev, own)
    if not shown:
        return None
    group = shown[0][2]
    kind = {"scan": "scans or a dump", "join": "queries joining without an index"}.get(group, "bulk writes")
    text = f"another client's {kind}: {_said_work(shown)}, while {_work_went(own)}"
    # a join is counted when it starts, and a poorly written one runs for seconds: the count says
    # the joins happened, not when each ran (no cause window, as FLUSH statements: Finding.event)
    return Finding("workload", text, shown[0][0], event=group == "join")


# the counters of rows a capture may hold: where none counts anything (dool's InnoDB row counters
# read 0 on MariaDB), another client's work is known only by its session and the CPU it takes
ROW_COUNTERS = ("Innodb_rows_read", "Handler_read_rnd_next", "Innodb_rows_inserted", "Handler_write")


def session_came(ev: Evidence) -> Finding | None:
    """Another client's queries where the capture counts no rows: a session connected beyond the
    steady level's own wander (a benchmark's clients are a fixed pool; workload_grew takes many
    more) while user CPU rose beyond its own wander, CPU_POINTS above what the server's own work,
    which fell, explains. Held-out dool-join-long-smooth: connected 8 -> 8.9, user CPU +18 points,
    selects at 65 % (read as another process's CPU before); dool-scan-long-smooth 8 -> 8.4, +6
    points (no cause). Where rows are counted, foreign_work names the work, and a status loop's own
    connections overlap more under a CPU hog (cpu-user-short-smooth: connected 5 -> 6.7, six busy
    loops): this needs none counted. Another process started with a client's session would read as
    this."""
    got = session_cpu(ev)
    if got is None or got[3] < CPU_POINTS:
        return None
    conn, usr, own, _ = got
    text = (
        f"another client's queries: sessions connected {span(conn.before, conn.during, '')}, user CPU "
        f"+{usr.during - usr.before:.0f} points, while {_work_went(own)} "
        "(no rows counted: which queries, the capture does not say)"
    )
    # the key is the CPU the queries take, not the sessions: a loop of short clients is connected
    # now and then (dool-scan-long-smooth, 8 -> 8.4 on average: its window read 59-73 s of the
    # truth's 34-74 s), its queries' CPU all along
    return Finding("workload", text, usr)


def session_cpu(ev: Evidence) -> tuple[Change, Change, Change, float] | None:
    """session_came's levels (sessions connected, user CPU, the server's own work) and its
    quantity, the user CPU points above what that work explains, where no rows are counted, a
    session came and the user CPU rose beyond their own wander, and the work fell."""
    own, conn, usr = _own_work(ev), _session_came(ev), _cpu(ev, USER_CPU)
    if own is None or conn is None or usr is None or not 0 < own.during < own.before:
        return None
    if not _certain(ev, usr) or usr.during <= usr.before:
        return None
    return conn, usr, own, usr.during - usr.before * own.during / own.before


def _session_came(ev: Evidence) -> Change | None:
    """The sessions connected, where a session came beyond their steady level's own wander in a
    capture that counts no rows (ROW_COUNTERS): another client, whose work only the resources it
    takes show (session_came, disk_burst)."""
    if any((c := ev.server(m)) is not None and (c.before > 0 or c.during > 0) for m in ROW_COUNTERS):
        return None
    conn = ev.server("Threads_connected")
    if conn is None or conn.during <= conn.before or not _certain(ev, conn):
        return None
    return conn


def _extra_work(ev: Evidence, own: Change) -> list[tuple[Change, str, str]]:
    """The work counters (FOREIGN_WORK) far above their steady level and as far per commit of the
    server's own work (`own`), the one that grew most first and another of its group: (the change,
    what it counts, its group)."""
    ratio = own.during / own.before
    extra = []
    for metric, what, group in FOREIGN_WORK:
        c = ev.server(metric)
        if c is None or c.before < 0 or c.change < EXTRA_EFFECT:
            continue
        more = c.during / c.before if c.before > 0 else math.inf
        # grown, and grown per commit: a counter that only held while the commits stalled is no one's
        if more >= EXTRA_RATIO and more >= EXTRA_RATIO * ratio:
            extra.append((more, c, what, group))
    extra.sort(key=lambda x: -x[0])
    return [(c, what, group) for _, c, what, group in extra if group == extra[0][3]][:2]


def _said_work(shown: list[tuple[Change, str, str]]) -> str:
    return ", ".join(f"{what} {span(c.before, c.during, _work_unit(c))}" for c, what, _ in shown)


def _work_unit(c: Change) -> str:
    """A work counter's unit: bytes a second for the byte counters (a status loop's or the dool
    column that read one), else a count a second."""
    counter = STATUS_OF.get((c.ref.format, c.ref.metric), c.ref.metric)
    return "B/s" if counter in ("Bytes_sent", "Bytes_received", "Innodb_os_log_written") else "/s"


def _lock_wait(c: Change) -> bool:
    """A performance schema event that is a wait for a metadata, global read or table lock."""
    return "MDL" in c.ref.entity or "global_read_lock" in c.ref.entity or "wait/lock/" in c.ref.entity


def lock_waits(ev: Evidence) -> Finding | None:
    locks = [c for c in ev.each("perfschema", "SUM_TIMER_WAIT") if _lock_wait(c)]
    waits = [c for c in locks if _grew(c, LOCK_WAIT_MS)]
    seen = [m for m in ("Com_flush", "Com_lock_tables", "Com_backup", "Com_backup_lock") if appeared(ev, m) is not None]
    statements = {"Com_flush": "FLUSH TABLES", "Com_lock_tables": "LOCK TABLES"}
    said = "; ".join(f"{statements.get(m, m.removeprefix('Com_').upper())} seen" for m in seen)
    if waits:
        w = max(waits, key=lambda c: c.during - c.before)
        what = (
            "the global read lock / metadata lock"
            if "MDL" in w.ref.entity or "global" in w.ref.entity
            else "table locks"
        )
        detail = f"MDL wait {span(w.before, w.during, 'ms/s')}" + (f"; {said}" if said else "")
        return Finding("locks", f"sessions waited on {what} ({detail})", w, looks=len(locks))
    row = ev.get(GS, "Innodb_row_lock_time")
    idle = ev.machine("cpu idle")
    grew = row is not None and _grew(row, LOCK_WAIT_MS)
    more = not grew and row is not None and _more_waited(ev, row) and _moved(ev, idle) and _sessions_piled(ev)
    if row is not None and (grew or more):
        # row lock time counts a wait when it ends (a 12 s wait lands after the lock's release): the
        # key, whose window the cause's is, is the waits in progress, when they grew (sessions in a
        # row-lock wait, a gauge read every few seconds); the time confirms too (many short waits
        # on hot rows end as they come: held-out hot-rows-short-tpcc, 2.2 -> 6.4 s/s over 12 s,
        # p 4e-7 where the waits in progress, 2.0 -> 6.5 over six snapshots, read 0.045)
        now = ev.server("Innodb_row_lock_current_waits")
        key = now if now is not None and now.during > now.before else None
        text = f"sessions waited on row locks (row lock time {span(row.before, row.during, 'ms/s')})"
        if more and idle is not None:
            text = text[:-1] + f", while the CPUs idled +{idle.during - idle.before:.0f} points)"
        if key is None:
            return Finding("locks", text, shows=(row,))
        return Finding("locks", text, key, gauge=True, also=(row,))
    if seen:
        running = ev.get(GS, "Threads_running")
        extra = f", threads running {span(running.before, running.during, '')}" if running is not None else ""
        # the key: the statements themselves, another client's, upstream of every wait (a FLUSH
        # TABLES loop's Com_flush, 0 -> 12 a second; app/analysis/confirm.py tests it)
        key = ev.get(GS, seen[0])
        text = f"sessions waited on the global read lock / table locks ({said}{extra})"
        return Finding("locks", text, key, event=True)
    return None


def appeared(ev: Evidence, metric: str) -> Change | None:
    """A status counter at 0 in every steady sample and above it in the window (explain's level of
    a series at 0 throughout is 0; of one at 0 only most of the time, its mean), else None."""
    c = ev.get(GS, metric)
    return c if c is not None and c.before == 0 and c.during > 0 else None


def row_locks_stuck(ev: Evidence) -> Finding | None:
    """Most running sessions in a row-lock wait, where they were not before, or more of them while
    the waits stopped ending: a transaction holds the rows they need. Row lock time counts a wait
    when it ends (a 12 s wait lands in the snapshot after the lock is released), so the waits in
    progress (Innodb_row_lock_current_waits) tell it during the window itself. Waits that stopped
    ending with no more sessions in them are the workload's own lock holders slowed by something
    else (issue 23: lock contention is the verdict when the lock waits grew): held-out
    net-congest-short-bursty's 32 clients on 10 rows, 26 -> 23 waiting behind clients whose every
    reply took 300 ms, where a transaction holding the rows put every session in a wait (29-30 ->
    32 of 34 under the bursty and churn workloads)."""
    stuck = _stuck(ev)
    if stuck is None:
        return None
    now, running = stuck
    if _clients_kept_idle(ev):
        return None
    ended = ev.get(GS, "Innodb_row_lock_waits")
    new = now.before < STUCK_SHARE * running.before
    stopped = ended is not None and ended.before > 0 and ended.during <= STUCK_ENDED * ended.before
    stopped = stopped and now.during >= now.before + 1.0  # at least one session more in a wait
    if not (new or stopped):
        return None
    was = f"was {now.before:.0f}" if new or ended is None else f"waits ending {span(ended.before, ended.during, '/s')}"
    return Finding(
        "locks",
        f"sessions stuck on row locks ({now.during:.0f} of {running.during:.0f} running sessions in a row-lock "
        f"wait; {was}): a transaction holds the rows",
        now,
        gauge=True,
    )


# the time sessions spent idle between statements, waiting for their client's next one, s/s, and
# each such wait (performance schema's `idle` event): not evidence that ranks (an idle wait is no
# resource, app/analysis/relevance.py), measured for the verdicts (explain.LIMITS)
IDLE_TIME = SeriesRef("perfschema", "SUM_TIMER_WAIT", "idle")
IDLE_EACH = SeriesRef("perfschema", "AVG_TIMER_WAIT", "idle")


def _clients_kept_idle(ev: Evidence) -> bool:
    """The sessions still spent time idle between statements (performance schema's `idle` wait,
    s/s, where it is measured: more than a tenth of its steady level, STUCK_ENDED as for the waits
    that stopped ending): they were not stuck. Sessions held on a lock are not idle: every held-out
    run with a transaction holding the rows (row-lock-*), a global read lock or a table lock cut it
    to 0.7 % of its steady level or less; clients whose round trips slowed keep 37-135 % of it
    (net-congest-long-churn, net-congest-short-bursty: most sessions in row lock waits before and
    during, the lock holders being the slowed clients)."""
    idle = ev.levels.get(IDLE_TIME)
    return idle is not None and idle.before > 0 and idle.during > STUCK_ENDED * idle.before


def _stuck(ev: Evidence) -> tuple[Change, Change] | None:
    """(sessions in a row-lock wait, sessions running) when most running sessions were in one
    during the window: a status loop's, or dool's as DBPA records them (`mysql5 locks` Locks,
    `mysql5 conn` Act)."""
    now, running = ev.server("Innodb_row_lock_current_waits"), ev.server("Threads_running")
    if now is None or running is None or running.during <= 0:
        return None
    return (now, running) if now.during >= max(1.0, STUCK_SHARE * running.during) else None


def purge_lag(ev: Evidence) -> Finding | None:
    h = ev.get(GS, "Innodb_history_list_length") or ev.get("innodb_status", "history_list_length")
    if h is None or h.during < max(PURGE_RATIO * h.before, h.before + PURGE_MIN):
        return None
    said = f"history list length kept growing ({span(h.before, h.during, '')}): purge lag"
    return Finding("purge", said, h, gauge=True)


def workload_grew(ev: Evidence) -> Finding | None:
    """Many more sessions connected: a client's load (a spike of clients, another job on the
    server), upstream of the CPU, disk and locks it then takes. A benchmark's clients are a fixed
    pool: a slowdown makes its sessions wait (running, in lock waits), it does not connect more,
    so the work may have held (a saturated server does no more work for more sessions: a DBPA
    heavy workload, 70 -> 120 sessions, commits at 99 %) or fallen (DBPA's concurrent inserts,
    70 -> 98, the benchmark's commits slowed). Not when most running sessions sit in row-lock
    waits: they arrived and blocked (row_locks_stuck says what holds them). An application that
    opens connections as its requests slow (a pool growing under latency) would read as load here."""
    conn = ev.server("Threads_connected")
    if conn is None or conn.change < EXTRA_EFFECT or conn.during - conn.before < MORE_SESSIONS:
        return None
    if conn.during < SESSIONS_RATIO * conn.before:
        return None
    own = _own_work(ev)
    if own is None or (own.during < WORK_HELD * own.before and _stuck(ev) is not None):
        return None
    shown = (ev.server("Questions"), ev.server("Com_commit"), ev.get(GS, "Queries"), ev.get("dstat", "mysql5_all.comm"))
    work = [c for c in shown if c is not None and c.before > 0]
    grew = [c for c in work if c.during >= WORK_RATIO * c.before]
    said = ", ".join(f"{c.ref.metric} {span(c.before, c.during, '/s')}" for c in grew[:2])
    connected = f"connected {span(conn.before, conn.during, '')}"
    # their work, where it grew beyond the commits (a spike of clients of a heavier kind than the
    # benchmark's: 16 sysbench clients' range scans beside the bursty workload's 10-row table)
    heavier = _extra_work(ev, own)
    theirs = f"; their work: {_said_work(heavier)}" if heavier else ""
    if own.during < WORK_HELD * own.before:
        text = f"more sessions: {connected} while {_work_went(own)}: another client's load{theirs}"
        return Finding("workload", text, conn, gauge=True)
    said = said or f"{own.ref.metric} held ({own.during / own.before:.0%} of its steady rate)"
    return Finding("workload", f"more sessions and work: {connected}, {said}{theirs}", conn, gauge=True)


def deadlocks(ev: Evidence) -> Finding | None:
    """Sessions rolled back on deadlocks far more than in the steady state: the workload's own lock
    conflicts (its retries then take CPU, which is not another process's)."""
    d = ev.get(GS, "Innodb_deadlocks")
    if d is None or d.during < DEADLOCK_RATIO * d.before or d.during - d.before < DEADLOCK_MIN:
        return None
    return Finding(
        "locks", f"sessions rolled back on deadlocks ({span(d.before, d.during, '/s')}): a deadlock storm", d
    )


def pool_shrank(ev: Evidence) -> Finding | None:
    p = ev.get(GS, "Innodb_buffer_pool_pages_total") or ev.get("innodb_status", "buffer_pool_size")
    if p is None or p.during >= POOL_SHRANK * p.before:
        return None
    said = f"buffer pool shrank ({span(p.before * PAGE, p.during * PAGE, 'B')})"
    reads = [c for c in _devices(ev) if quantity(c.ref) == "disk reads" and _burst(*_bytes(c))]
    if reads:
        said += f": {_device(reads[0])} reads {span(*_bytes(reads[0]), 'B/s')}"
    return Finding("buffer_pool", said, p, gauge=True)


def _devices(ev: Evidence) -> list[Change]:
    """Each device's bytes (iostat), else the machine's, whichever collector measured them."""
    per = ev.each("iostat", "wkB/s") + ev.each("iostat", "rkB/s")
    return per or [c for q in ("disk writes", "disk reads") if (c := ev.machine(q)) is not None]


# a device's request counters and the bytes of the same direction: iostat's per device, dool's
# (dstat's io/total and dsk/total) for the machine
REQUESTS = (
    ("iostat", "w/s", "wkB/s"),
    ("iostat", "r/s", "rkB/s"),
    ("dstat", "io.writ", "dsk.writ"),
    ("dstat", "io.read", "dsk.read"),
)


def small_ios(ev: Evidence) -> Finding | None:
    """Another process's syncs or small synchronous writes: a device's requests BURST_RATIO times
    their steady rate and certain, while its bytes grew BURST_RATIO times less (each request that
    much smaller). Held-out dool-io-sync-long-smooth (`stress-ng -i 4`: sync() in a loop, captured
    by dool: no device utilisation, no rise of I/O wait on this VM): write requests 3,200 -> 32,000
    a second at the same ~75 MB/s, which its system CPU (+13 points, the syncs' own) had named.
    Upstream of the kernel CPU the requests take; tried after a burst of bytes."""
    for fmt, metric, bytes_metric in REQUESTS:
        for c in ev.each(fmt, metric):
            b = ev.get(fmt, bytes_metric, c.ref.entity)
            if c.before <= 0 or c.change < EXTRA_EFFECT or c.during < BURST_RATIO * c.before or b is None:
                continue
            grew = b.during / b.before if b.before > 0 else math.inf
            if c.during / c.before >= BURST_RATIO * grew:
                what = "write" if quantity(b.ref) == "disk writes" else "read"
                said = (
                    f"{_device(c)} {what} requests {span(c.before, c.during, '/s')} while its bytes moved "
                    f"{span(*_bytes(b), 'B/s')}: small synchronous I/O (another process's syncs or small writes)"
                )
                return Finding("disk", said, c)
    return None


def _device(c: Change) -> str:
    return "disk" if c.ref.entity in MACHINE else c.ref.entity


def disk_burst(ev: Evidence) -> Finding | None:
    burst = [c for c in _devices(ev) if _burst(*_bytes(c))]
    if not burst:
        return _busy(ev)
    c = max(burst, key=_grown)
    measured = [w for m in ("Innodb_data_written", "Innodb_os_log_written") if (w := ev.get(GS, m)) is not None]
    reads = [r for r in burst if quantity(r.ref) != "disk writes"]
    read = _pages_read(ev)
    if quantity(c.ref) == "disk writes" and not measured and reads and read is not None:
        # who wrote is not known, and InnoDB's own reads say who read: the reads are the proven
        # mechanism (held-out dool-pool-shrink-long-smooth, the resize's first 5 s: writes 61 ->
        # 806 MB/s, reads 0.13 -> 625 MB/s with InnoDB reading 22 -> 4,764 pages a second)
        c = max(reads, key=_grown)
    before, during = _bytes(c)
    writes = quantity(c.ref) == "disk writes"
    what = f"{_device(c)} {'writes' if writes else 'reads'} {span(before, during, 'B/s')}"
    if not writes:
        # InnoDB's own reads grown with the device's: its pages read back, a buffer pool that no
        # longer holds them (held-out dool-pool-shrink-long-smooth: no pool size in dool's columns,
        # data reads 0 -> 2,370 /s with the device's 2.8 -> 206 MB/s)
        if read is not None:
            said = f"{what}, InnoDB reading {span(read.before, read.during, '/s')}"
            conn = _session_came(ev)
            if conn is not None:
                # ... but a client came with them: its pages read, a scan (held-out
                # dool-scan-short-tpcc, another client's full scans of tables the TPC-C-like mix does
                # not use: connected 12 -> 12.9, InnoDB reading 37 -> 144 pages a second)
                said += f" while a session connected ({span(conn.before, conn.during, '')})"
                return Finding("workload", f"{said}: another client's reads (no rows counted)", c)
            return Finding("buffer_pool", f"{said}: buffer pool misses", c)
        return Finding("disk", f"{what}: reads from disk", c)
    if not measured:  # a folder without the server's own write counters: who wrote is not known
        conn = _session_came(ev)
        if conn is not None:
            # ... but a client came with them: the server writing its work (held-out
            # dool-rebuild-long-churn, another client's table rebuilds: connected 36 -> 37, writes
            # 5.7 -> 262 MB/s; another process's writers left the sessions at 8 and 12)
            said = f"{what} while a session connected ({span(conn.before, conn.during, '')})"
            return Finding("workload", f"{said}: another client's writes (no rows or server writes counted)", c)
        return Finding("disk", f"{what}: another writer, or the server's own (its writes not measured)", c)
    own = sum(w.during for w in measured)
    if own < OWN_SHARE * (during - before):
        said = f"{what} while InnoDB wrote < {human(max(own, 1e6), 'B/s')}: another writer on the disk"
        return Finding("disk", said, c)
    return Finding("disk", f"{what}, InnoDB writing {human(own, 'B/s')}: the server's own writes", c)


def _grown(c: Change) -> float:
    """How many bytes a second a disk quantity grew by."""
    before, during = _bytes(c)
    return during - before


def _pages_read(ev: Evidence) -> Change | None:
    """InnoDB's own reads, when they burst (BURST_RATIO and EXTRA_EFFECT): pages the buffer pool
    did not hold."""
    reads = (ev.server(m) for m in ("Innodb_data_reads", "Innodb_buffer_pool_reads"))
    read = next((r for r in reads if r is not None), None)
    if read is not None and read.change >= EXTRA_EFFECT and read.during >= BURST_RATIO * read.before:
        return read
    return None


def _busy(ev: Evidence) -> Finding | None:
    """A device that got busy without a burst of bytes (small writes, a slower device)."""
    util = [c for c in ev.each("iostat", "%util") if c.during - c.before >= UTIL_POINTS]
    if not util:
        return None
    c = max(util, key=lambda c: c.during - c.before)
    return Finding("disk", f"{c.ref.entity} busy {c.before:.0f} \u2192 {c.during:.0f} % of the time: the disk", c)


def io_waits(ev: Evidence) -> Finding | None:
    """The CPUs waited on I/O more while the disks moved no more bytes: each request got slower,
    not the work bigger (another process's syncs or small synchronous writes, a device or volume
    slowing down). A burst of bytes is disk_burst's, tried before; the processes blocked on I/O
    (vmstat b) are said beside when they rose."""
    wa = ev.machine("cpu iowait")
    # a ratio needs a steady level: a machine that never waited on I/O gets its disk verdicts from
    # the devices' own series (disk_burst, a device busy)
    if wa is None or wa.before <= 0 or not _certain(ev, wa) or wa.during < IOWAIT_RATIO * wa.before:
        return None
    moved = [c for q in ("disk writes", "disk reads") if (c := ev.machine(q)) is not None]
    before, during = sum(_bytes(c)[0] for c in moved), sum(_bytes(c)[1] for c in moved)
    if before > 0 and during >= IOWAIT_RATIO * before:
        return None
    if _idled(ev) > wa.during - wa.before:
        return None  # the CPU the drop freed went mostly to plain idle: what was waited on was no disk
    said = f"CPU time waiting on I/O {span(wa.before, wa.during, '%')}"
    blocked = ev.machine("processes blocked")
    if blocked is not None and blocked.during > blocked.before:
        said += f" (processes blocked {span(blocked.before, blocked.during, '')})"
    # the syncs' own time in the kernel, where it rose: a second series of the same cause, said
    # where beyond its noise
    kernel = ev.machine("cpu system")
    also = (kernel,) if kernel is not None and kernel.during > kernel.before else ()
    if also and _certain(ev, also[0]):
        said += f", system CPU {span(also[0].before, also[0].during, '%')}"
    if moved and before > 0:
        said += f" while the disks moved {span(before, during, 'B/s')}"
    said += ": I/O slowed without more bytes (other syncs or small writes, or a slower device)"
    return Finding("disk", said, wa, also=also)


def _piled(
    running: Change,
    connected: Change | None = None,
    sigmas: float = 0.0,
    *,
    piled: tuple[float, float] = (PILED, PILED_MORE),
    inside: tuple[float, float] = (RUNNING_HELD, ALL_INSIDE),
    certain: tuple[float, float] = (RUNNING_HELD, PILED_SIGMAS),
) -> bool:
    """Whether the sessions running piled up inside the server (PILED, PILED_MORE), or rose to
    every session connected (ALL_INSIDE): a workload whose clients were all running already has
    no room to pile up (held-out dool-row-lock-long-bursty, 32 clients on 10 rows: running 30 ->
    34 of 37 connected, the statements at 0.3 % and the CPU idle +72 points, read as clients
    slowed); or rose by RUNNING_HELD and PILED_SIGMAS standard errors of the gauge's own wander
    over stretches as long as the window (`sigmas`, Evidence.beyond_noise): a long window's
    smaller rise (held-out dool-hot-rows-long-tpcc, 8 clients on one district: running 6 -> 8.5
    of 12 connected over 40 s, 6.8 of them, read as clients slowed). `piled`, `inside` and
    `certain` are the thresholds, for bench/gauge_null.py's grid."""
    if running.during >= max(piled[0] * running.before, running.before + piled[1]):
        return True
    # most of the sessions inside (where the connected are known): on a workload that holds its
    # row locks across round trips, slowed clients pile some up too (held-out net-slow-long-tpcc:
    # running 3 -> 4.05 of 9.6 connected, beyond its noise against some steady states)
    most = connected is None or running.during >= MOST_INSIDE * connected.during
    if running.during > certain[0] * running.before and sigmas >= certain[1] and most:
        return True
    return (
        connected is not None
        and running.during > running.before * inside[0]
        and running.during >= inside[1] * connected.during
    )


def _sessions_piled(ev: Evidence) -> bool:
    """_piled on the evidence's sessions running and connected, their rise beyond their noise; or
    the sessions held inside the server by the time they spent idle (_held), where the
    performance schema times it."""
    running = ev.server("Threads_running")
    if running is not None and _piled(running, ev.server("Threads_connected"), ev.beyond_noise(running)):
        return True
    idle = ev.levels.get(IDLE_TIME)
    return idle is not None and _held(idle, ev.beyond_noise(idle))


def _held(idle: Change, sigmas: float, held: tuple[float, float] = (IDLE_HELD, PILED_SIGMAS)) -> bool:
    """Sessions held inside the server: the time they spent idle between statements, waiting for
    their clients (performance schema's `idle`, s/s), fell to IDLE_HELD of its steady level or
    less and by PILED_SIGMAS standard errors of its own wander (`sigmas`, Evidence.beyond_noise).
    Threads_running is one instant of each snapshot and has no room to rise where every client
    runs already (held-out hot-rows-short-tpcc32, 32 clients turned to one district: running 30
    -> 31.7 of 33 connected), while the time idle is counted all along (9.9 -> 1.4 s/s, 41 of
    them); slowed clients keep theirs (0.94-1.09 of it on the network runs). `held` for
    bench/gauge_null.py's grid."""
    return idle.before > 0 and idle.during <= held[0] * idle.before and -sigmas >= held[1]


def _idled(ev: Evidence) -> float:
    """How many points of CPU time went idle (not waiting on I/O) over the window; 0 unknown. A
    drop that frees the CPU while its sessions wait on I/O shows it as I/O wait, an idle CPU with
    a task blocked on I/O; plain idle is a CPU with nothing to run and nothing awaited from a disk.
    DBPA's I/O saturation (stress-ng's syncs on a 32-core server) moved the idle down, the I/O wait
    up; the benchmark's own contention for one row freed 35 points of idle, 3 of I/O wait."""
    idle = ev.machine("cpu idle")
    return idle.during - idle.before if idle is not None else 0.0


def waited_inside(ev: Evidence) -> Finding | None:
    """Sessions piled up inside the server while its CPUs idled and its disks did no more: they
    waited on each other, on locks or latches the folder does not count (dool's MySQL plugins
    have no lock counter: held-out dool-hot-rows-long-hot, the benchmark's transactions turned to
    one row, running 2-3 -> 8-9 of 12 sessions, 35 points of CPU idle more). Tried after every
    cause whose own series say it (the lock counters, a disk, the CPU taken): the inference from
    what did not move, as clients_slowed's."""
    own = _own_work(ev)
    running = ev.server("Threads_running")
    if own is None or own.during >= own.before or running is None:
        return None
    connected, sigmas = ev.server("Threads_connected"), ev.beyond_noise(running)
    if not _piled(running, connected, sigmas):
        return None
    idle = ev.machine("cpu idle")
    if idle is None or not _moved(ev, idle) or any(_burst(*_bytes(c)) for c in _devices(ev)) or _busy(ev) is not None:
        return None
    idled = idle.during - idle.before
    # the connected sessions said where the running reached them, not where they rose beyond noise
    of = f" of {connected.during:.3g} connected" if not _piled(running, None, sigmas) and connected is not None else ""
    said = (
        f"sessions piled up inside the server (running {span(running.before, running.during, '')}{of}) while its CPUs "
        f"idled (+{idled:.0f} points) and its disks did no more: they waited on each other (row or table "
        "locks, latches)"
    )
    # no key: sessions pile up on any slowdown, so their count confirms no drop (confirm.py)
    return Finding("locks", said, shows=(running, idle))


def _bytes(c: Change) -> tuple[float, float]:
    """A disk quantity's levels in B/s."""
    scale = BYTES_PER_UNIT.get(c.ref.metric, 1024.0)
    return c.before * scale, c.during * scale


def _burst(before: float, during: float) -> bool:
    return during - before >= BURST_BYTES and during >= BURST_RATIO * before


def _certain(ev: Evidence, c: Change) -> bool:
    """A rise beyond the series' own noise over stretches as long as the window: EXTRA_EFFECT of
    Evidence.beyond_noise's standard errors."""
    return ev.beyond_noise(c) >= EXTRA_EFFECT


def _moved(ev: Evidence, c: Change | None) -> bool:
    """A CPU share (busy or idle) that rose CPU_POINTS, and with certainty (_certain)."""
    return c is not None and c.during - c.before >= CPU_POINTS and _certain(ev, c)


def cpu_taken(ev: Evidence) -> Finding | None:
    sys_, usr, nice = _cpu(ev, SYSTEM_CPU), _cpu(ev, USER_CPU), _cpu(ev, NICE_CPU)
    if sys_ is None and usr is None and nice is None:
        return None
    ds = sys_.during - sys_.before if sys_ else 0.0
    du = usr.during - usr.before if usr else 0.0
    dn = nice.during - nice.before if nice else 0.0
    fell = f" while user CPU fell {-du:.0f} points" if du < -1 else ""
    if _moved(ev, sys_) and ds >= max(du, dn):
        said = f"system CPU +{ds:.0f} points{fell}: CPU taken by another process (in the kernel)"
        return Finding("cpu", said, sys_)
    if _moved(ev, nice) and dn >= du:
        # a process started at a lower priority (a batch job, a backup): the server's threads run
        # at the priority they started with, so no client's query is counted as nice (held-out
        # cpu-nice-long-tpcc: %nice 0 -> 57 while the server's user CPU fell, no verdict before)
        said = f"nice CPU +{dn:.0f} points{fell}: CPU taken by another process (at a lower priority)"
        return Finding("cpu", said, nice)
    if _moved(ev, usr):
        r = ev.get("vmstat", "r")
        queue = f", run queue {span(r.before, r.during, '')}" if r is not None and r.during > r.before else ""
        # whose CPU the machine's counters do not say: a busy loop's, or a query's of another client
        # that reads no more rows (a join without an index compares rows in memory)
        return Finding("cpu", f"user CPU +{du:.0f} points{queue}: {OTHER_WORK}", usr)
    return None


def user_cpu_taken(ev: Evidence) -> Finding | None:
    """cpu_taken's verdict when it is the user CPU (or the nice CPU): another process's work (or
    another client's queries) is upstream of a server that ran flushing-bound before (flushing_standing is tried
    after it, the system CPU after that: a throttled page cleaner's single-page flushes are the
    server's own kernel time, flushing-long-writes-2's +19 points)."""
    found = cpu_taken(ev)
    user = (*USER_CPU, *NICE_CPU)
    return found if found is not None and found.key is not None and found.key.ref.metric in user else None


def clients_slowed(ev: Evidence) -> Finding | None:
    """The server waited for its clients: its commits fell while no resource of its own got
    busier (CPU, disks, sessions running inside it) and each transaction sent and received as many
    bytes as before: every statement arrived later. Upstream of the server, so nothing it shows
    grows but its own wait for each client's next statement, where the performance schema times it
    (its `idle` event: 0.5 -> 237 ms a statement behind 300 ms on every reply, 0.7 -> 2.9 ms behind
    2 ms), the cause's key: a congested or distant network, or slowed clients (TCP retransmits said
    where the folder has them)."""
    own = _own_work(ev)  # the commits, else the statements (a dool capture's)
    if own is None or own.during > NET_FELL * own.before:
        return None
    # the server's own wait for each client's next statement, where the performance schema times
    # it: no longer than before, the clients did not slow (what idled the server is inside it)
    each = ev.levels.get(IDLE_EACH)
    if each is not None and each.before > 0 and each.during <= each.before:
        return None
    # bytes per statement where the server counts its statements (a round trip each, whatever share
    # of the transactions is retried: held-out net-slow-long-churn's deadlock retries put x2 the
    # bytes on each commit and x1.07 on each statement), else per unit of its work
    statements = ev.server("Questions")
    unit = statements if statements is not None and statements.before > 0 else own
    moved = [(c, m) for m in ("Bytes_sent", "Bytes_received") if (c := ev.server(m)) is not None and c.before > 0]
    if not moved or not all(_bytes_held(c, unit) for c, _ in moved):
        return None
    running = ev.server("Threads_running")
    if running is None or _sessions_piled(ev):
        return None  # sessions piled up inside the server: it is what slowed
    sys_, usr = _cpu(ev, SYSTEM_CPU), _cpu(ev, USER_CPU)
    if any(_moved(ev, c) for c in (sys_, usr)):
        return None
    if any(_burst(*_bytes(c)) for c in _devices(ev)) or _busy(ev) is not None:
        return None
    # the server idled: its CPU freed by the wait (a proxy's 2 ms a reply: idle 0 -> 62 %). One
    # that stayed busy did not wait for its clients (held-out dool-scan-long-smooth, another
    # client's scans: idle 6 -> 1 %, read as this when the rule looked only for CPU taken)
    idle = ev.machine("cpu idle")
    if idle is None or not _moved(ev, idle):
        return None
    c, counter = moved[0]
    idled = f"CPU idle {idle.before:.0f} → {idle.during:.0f} %, "
    work = _work_name(own)
    share = own.during / own.before
    per = _work_name(unit)
    b, d = c.before / unit.before, c.during / max(unit.during, 1e-9)
    way = "sent" if counter == "Bytes_sent" else "received"
    # at a standstill what each unit moved is the monitoring's own traffic over a few units: the
    # bytes are said as they fell with the work
    bytes_ = (
        f"each {'transaction' if per == 'commits' else per[:-1]} moved as many bytes ({span(b, d, 'B')} {way})"
        if _each_held(c, unit)
        else f"the bytes fell with them ({span(c.before, c.during, 'B/s')} {way})"
    )
    said = (
        f"{work} {share:.{0 if share >= 0.01 else 1}%} of their steady rate while the server idled ({idled}sessions "
        f"running {span(running.before, running.during, '')}) and {bytes_}"
    )
    retrans = next((c for fmt, m in RETRANSMITS if (c := ev.get(fmt, m)) is not None and c.during > c.before), None)
    if retrans is not None:
        said += f", TCP retransmits {span(retrans.before, retrans.during, '/s')}"
    if each is None or not each.before > 0:
        # no key series: what slowed is outside the server, none of its series is the cause itself
        return Finding(
            "network", f"{said}: its clients' round trips slowed (the network or the clients)", shows=(idle, running, c)
        )
    # the key: the round trip itself as the server sees it, upstream of everything it then waits on
    waited = span(each.before / 1000, each.during / 1000, "ms")
    return Finding(
        "network",
        f"{said}: its clients' round trips slowed (the network or the clients; each wait for a client's "
        f"next statement {waited})",
        each,
        looks=1,
    )


def _bytes_held(c: Change, own: Change) -> bool:
    """The bytes of counter c moved with the server's work (own): each unit as many bytes within
    BYTES_HELD, or what the work does not explain under BYTES_MATERIAL of the steady bytes."""
    explained = own.during / own.before * c.before
    return _each_held(c, own) or abs(c.during - explained) <= BYTES_MATERIAL * c.before


def _each_held(c: Change, own: Change) -> bool:
    """Each unit of the server's work (own) moved as many bytes of counter c, within BYTES_HELD."""
    return 1 / BYTES_HELD <= c.during / max(own.during / own.before * c.before, 1e-9) <= BYTES_HELD


def one_core(ev: Evidence) -> Finding | None:
    """One CPU saturated during the drop while the average was not: which CPU, busy with what,
    against what average (softirq: network interrupts, class network)."""
    for fmt in imbalance.SHARES:
        names = sorted({c.ref.entity for c in ev.each(fmt, "%idle")} - {imbalance.AGGREGATE, ""})

        def level(metric: str, cpu: str, fmt: str = fmt) -> tuple[float, float] | None:
            c = ev.get(fmt, metric, cpu)
            return (c.before, c.during) if c is not None else None

        got = imbalance.hot_in_window(fmt, names, level)
        if got is not None and got[0].busy - got[1] >= CPU_POINTS:
            hot = got[0]
            klass = "network" if hot.share == "softirq" else "cpu"
            return Finding(klass, imbalance.describe(hot), ev.get(fmt, "%idle", hot.cpu))
    return None


# a CPU share's columns: mpstat, iostat and sar's, vmstat's, dstat's and dool's
SYSTEM_CPU = ("%sys", "%system", "sy", "cpu.sys")
USER_CPU = ("%usr", "%user", "us", "cpu.usr")
# user CPU at a lower priority, where a collector counts it apart (mpstat, sar, iostat; vmstat's us
# and dool's usr hold it)
NICE_CPU = ("%nice",)


def _cpu(ev: Evidence, metrics: tuple[str, ...]) -> Change | None:
    """The CPU share that moved most: any CPU of mpstat (or dstat), else the machine's (vmstat,
    iostat)."""
    cands = [
        c
        for c in ev.levels.values()
        if c.ref.metric in metrics and c.ref.format in ("mpstat", "vmstat", "iostat", "sar", "dstat")
    ]
    return max(cands, key=lambda c: abs(c.during - c.before), default=None)
