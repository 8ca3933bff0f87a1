"""Another process's I/O requests: a device asked for more while the server's own I/O did not ask
for them (issue #23: what started, before what piled up).

A server bound by its commits (the binary log and the redo log synced at each one) keeps its disk
busy with small synchronous writes all along: ~16,000 write requests and ~6,000 flushes a second,
the device ~55 % busy. Another process's sync() loop (held-out io-sync-long-durable, `stress-ng
-i 4`) doubled the requests (x1.9) at about the same bytes, so neither a burst of bytes
(causes.disk_burst: x3) nor requests grown against their bytes (causes.small_ios: x3) saw it, and
the kernel CPU the syncs took named the CPU. What tells it apart is whose requests they were: the
commits fell to x0.68, and with them every request the server counts of its own (InnoDB's writes
and fsyncs x0.66), while the device's doubled. The device's requests beyond what the server's own
change explains are another process's.

The quantity (`unexplained`): a device's requests over the window less its steady requests scaled
by the server's own counters of the same kind (InnoDB's data writes, log writes and fsyncs and the
binary log's group commits for write requests; the syncs for flushes; its data reads for read
requests), as a share of the device's steady read and write requests. Read from iostat per device
(w/s, f/s, r/s) or dool/dstat for the machine (io/total), the server's counters from a status loop
or dool's innodb io ops. No own counter in the folder, no verdict: whose requests they were is not
known.
"""

from __future__ import annotations

from typing import NamedTuple

from benchlens.app.analysis.causes import EXTRA_EFFECT, Finding, _certain, _device
from benchlens.app.analysis.evidence import Change, Evidence, span

# the server's own I/O counters that account for a device's requests of each kind (a binary log's
# group commits: each one its write, and its sync where sync_binlog is 1)
OWN_SYNCS = ("Innodb_data_fsyncs", "Binlog_group_commits")
OWN_WRITES = ("Innodb_data_writes", "Innodb_log_writes", *OWN_SYNCS)
OWN_READS = ("Innodb_data_reads",)
WRITES, SYNCS, READS = (OWN_WRITES, "writes and syncs"), (OWN_SYNCS, "syncs"), (OWN_READS, "reads")
# (format, a device's request counter, what it counts, the server's counters of the same kind and
# what they count)
REQUESTS = (
    ("iostat", "w/s", "write requests", WRITES),
    ("iostat", "f/s", "flush requests", SYNCS),
    ("iostat", "r/s", "read requests", READS),
    ("dstat", "io.writ", "write requests", WRITES),
    ("dstat", "io.read", "read requests", READS),
)
# a device's read and write requests: its steady load, what the unexplained ones are a share of
LOAD = {"iostat": ("r/s", "w/s"), "dstat": ("io.read", "io.writ")}
# the device's requests beyond the server's own account, as a share of its steady read and write
# requests, that make another process's I/O: as many again as the device served. bench/rules_null.py
# ("REQUESTS_EXTRA"): 0 of 985 stretches of runs with nothing injected reach it (their largest 0.79,
# dool-quiet-smooth; 1 of 985 at 0.75); bench/cause_margins.py: 31 of the 38 disk windows of both
# corpora pass it (the nearest below 0.96 and 0.89, the sync loop on the disk-bound tpccio, whose
# disk rules come first), 3 of the 66 others' (a table rebuilt, a pool resized, a table optimized:
# the server's own file and metadata I/O, which its counters do not count; their rules come first).
# Measured against the share of the device's own request rate first: 44 of 985 null stretches
# passed (a few reads more on a device that writes thousands: dool's quiet runs, x850)
REQUESTS_EXTRA = 1.0


class Unexplained(NamedTuple):
    device: Change  # the device's requests
    what: str  # what they count
    own: str  # what the server's counters of the same kind count
    before: float  # the server's own requests of that direction, steady and over the window
    during: float
    share: float  # the device's requests beyond the server's account, a share of its steady load


def unexplained(ev: Evidence) -> Unexplained | None:
    """The device request counter, among those that rose beyond their noise (EXTRA_EFFECT), with
    the most requests the server's own I/O does not explain, as a share of the device's steady read
    and write requests (LOAD: a few reads more on a device that writes thousands are no load)."""
    best: Unexplained | None = None
    for fmt, metric, what, (counters, counted) in REQUESTS:
        own = [c for m in counters if (c := ev.server(m)) is not None]
        before, during = sum(c.before for c in own), sum(c.during for c in own)
        if not own or before <= 0:
            continue
        for c in ev.each(fmt, metric):
            if c.before <= 0 or c.during <= c.before or c.change < EXTRA_EFFECT or not _certain(ev, c):
                continue
            load = sum(d.before for m in LOAD[fmt] if (d := ev.get(fmt, m, c.ref.entity)) is not None)
            share = (c.during - c.before * during / before) / max(load, c.before)
            if best is None or share > best.share:
                best = Unexplained(c, what, counted, before, during, share)
    return best


def foreign_requests(ev: Evidence) -> Finding | None:
    got = unexplained(ev)
    if got is None or got.share < REQUESTS_EXTRA:
        return None
    c = got.device
    said = (
        f"{_device(c)} {got.what} {span(c.before, c.during, '/s')} while the server's own {got.own} went "
        f"{span(got.before, got.during, '/s')}: another process's I/O on the disk (syncs or small writes)"
    )
    return Finding("disk", said, c)
