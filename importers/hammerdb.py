"""HammerDB: the transaction counter log (`hdbtcount.log`) and the TPROC-C results of a hammerdbcli
run log, read as throughput.

Variants covered (tests/fixtures/hammerdb, MANIFEST there: real captures of v3.x, 4.0, 4.3 and 4.7
from PerfKitBenchmarker's test data and public repositories, and files written from HammerDB's own
format strings in src/generic/gentccmn.tcl, labelled `-handwritten`):
- transaction counter log with timestamps (`tc_log_timestamps`): a banner `Hammerdb Transaction
  Counter Log @ Thu Jun 30 21:18:31 UTC 2022`, a `+-+-+` rule, then one line per refresh,
  `193290 PostgreSQL tpm @ Thu Jun 30 21:18:41 UTC 2022` (the database as HammerDB names it:
  Oracle, SQL Server, Db2, MySQL, MariaDB, PostgreSQL; `qph` for TPROC-H). WALL-timed, the zone
  abbreviation kept as evidence for the folder clock. Without timestamps (`193290 MySQL tpm`) the
  lines are INDEX-timed (the refresh rate, 10 s by default, is not printed: the folder's clock
  spaces them). A log appended to by several runs (a second banner) reads on. A refresh HammerDB
  skipped (a 1 s log missing one second) stays a gap;
- the run log's results, one per run (a step load runs one per virtual-user count), from the
  hammerdbcli console or `hammerdb.log` (`Hammerdb Log @ <date>`, one banner per run in v3):
  `Vuser 1:TEST RESULT : System achieved 42332 NOPM from 97427 PostgreSQL TPM` (v4+) and
  `... System achieved 60301 SQL Server TPM at 13122 NOPM` (v3 and before), with the run's
  `Vuser 1:N Active Virtual Users configured` before it. Each result is one point, placed at the
  `Timestamp 1 @ <date>` line before it when the log has them, else by its number (INDEX). The
  rest of a run log is passed over without warnings (`4 VU TEST`, `101 Virtual Users Created with
  Monitor VU`, virtual users' errors, time-profile percentiles); a log whose first result lies
  beyond the detector's head (a 100-user console) is recognised by its banner and start-up lines.
  `N NOPM from 0 <db> TPM` with N > 0 means HammerDB could not read the server's transaction
  counter (a real PostgreSQL-compatible server printed it): TPM and tps are unknown (NaN), warned;
- the time profile report (`xtprof`, 4.x `hdbxtprofile.log`, see _xtprof): its run-wide block
  (`SUMMARY OF N ACTIVE VIRTUAL USERS`) as one point per transaction at the report's banner time
  (WALL; INDEX without a banner), entity the PROC name; a report cut before that block is refused
  with one line.

Metrics: `tpm` (transactions per minute, unit 1/min), `tps` (the same per second: tpm / 60,
1/s; the throughput every panel and drop detection read), `nopm` (new orders per minute, 1/min)
and `thds` (active virtual users) from results; `qph` (1/h) for TPROC-H counters. Entity "". From
a time profile: `xt_calls` (calls), `xt_<min|avg|max|total|p99|p95|p50...>_ms` (ms) and
`xt_ratio_pct` (%), entity NEWORD, PAYMENT, DELIVERY, SLEV, OSTAT.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from benchlens.importers import _xtprof
from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing, append_row

name = "hammerdb"

_DATE = r"\w{3} (\w{3}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) ([A-Za-z][\w+-]*) (\d{4})"
_COUNT = re.compile(rf"^(\d{{1,15}}) (\S.*?) (tpm|qph)(?: @ {_DATE})?\s*$")
_BANNER = re.compile(rf"^Hammerdb Transaction Counter Log @ {_DATE}")
_NOPM_FIRST = re.compile(r"TEST RESULT : System achieved (\d{1,15}) NOPM from (\d{1,15}) (.+?) TPM\s*$")
_TPM_FIRST = re.compile(r"TEST RESULT : System achieved (\d{1,15}) (.+?) TPM at (\d{1,15}) NOPM\s*$")
_USERS = re.compile(r"^(?:Vuser \d+:)?(\d{1,7}) Active Virtual Users configured")
_STAMP = re.compile(rf"^Timestamp \d+ @ {_DATE}")
# A run log's own lines, so that one whose TEST RESULT lies beyond the detector's head (a 100-user
# console holds ~70 KB before it; a v3 hammerdb.log step load one banner and result per run) is
# still HammerDB's: the log's banner, the CLI's banner and the virtual users' start-up lines.
_LOG_BANNER = re.compile(rf"^Hammerdb Log @ {_DATE}")
_CONSOLE = re.compile(
    r"^(?:HammerDB CLI v\d|Vuser \d+ created MONITOR - WAIT IDLE|Vuser \d+:Beginning rampup time of \d"
    r"|Vuser \d+:Processing \d+ transactions with output suppressed|\d+ Virtual Users Created with Monitor VU)"
)
_MONTHS = {
    m: k + 1 for k, m in enumerate(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"))
}
UNITS = {"tpm": "1/min", "tps": "1/s", "nopm": "1/min", "qph": "1/h", "thds": "threads"}


def sniff(head: str) -> float:
    lines = [line for line in head.splitlines()[:50] if line.strip()]
    if any(_BANNER.match(line) or _LOG_BANNER.match(line) or _xtprof.BANNER.match(line) for line in lines[:2]):
        return 0.95
    if sum(1 for line in lines if line.startswith(">>>>> PROC: ")) >= 2 and any(
        line.startswith("CALLS: ") for line in lines
    ):
        return 0.9  # a time profile report without its banner
    counts = sum(1 for line in lines if _COUNT.match(line))
    if lines and counts and 2 * counts >= len(lines):
        return 0.9
    if any(_NOPM_FIRST.search(line) or _TPM_FIRST.search(line) for line in head.splitlines()):
        return 0.85
    if sum(1 for line in head.splitlines() if _CONSOLE.match(line)) >= 2:
        return 0.8
    return 0.0


def _naive(ctx: Context, m: re.Match[str], first: int) -> float | None:
    """The naive seconds of `clock format` output (`Thu Jun 30 21:18:41 UTC 2022`) whose month is
    group `first` of m; its zone abbreviation is kept as evidence for the folder clock."""
    month = _MONTHS.get(m.group(first))
    if month is None:
        return None
    day, hh, mm, ss = (int(m.group(first + k)) for k in range(1, 5))
    try:
        naive = datetime(int(m.group(first + 6)), month, day, hh, mm, ss, tzinfo=UTC).timestamp()
    except ValueError:
        return None
    if ctx.meta.zone_abbrev is None:
        ctx.meta.zone_abbrev = m.group(first + 5)
    return naive


def _result(raw: str) -> tuple[float, float] | None:
    """(NOPM, TPM) of a TEST RESULT line, in either order HammerDB printed them."""
    if m := _NOPM_FIRST.search(raw):
        return float(m.group(1)), float(m.group(2))
    if m := _TPM_FIRST.search(raw):
        return float(m.group(3)), float(m.group(1))
    return None


class _Log:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.t: list[float] = []
        self.timed: bool | None = None  # one kind of line time per file
        self.users: float = np.nan
        self.stamp: float | None = None  # the last `Timestamp N @` of a run log
        # A line starting with a number is a counter line gone wrong only in a counter log: a run
        # log's console prints `4 VU TEST` and `5 Virtual Users Created with Monitor VU`.
        self.counter_log = False
        self.run_log = False
        self.profile = _xtprof.Profile()
        self.profile_time: float | None = None  # the time profile report's banner

    def add(self, no: int, when: float | None, values: dict[str, float]) -> None:
        timed = when is not None
        if self.timed is None:
            self.timed = timed
        if timed != self.timed:
            self.ctx.warn(no, "a line without a time among timed ones (or the reverse): skipped", kind="time")
            return
        append_row(self.rows, len(self.t), {(k, ""): v for k, v in values.items()})
        self.t.append(when if when is not None else float(len(self.t)))

    def line(self, no: int, raw: str) -> None:
        if m := _xtprof.BANNER.match(raw):
            self.ctx.note_variant(f"time profile report ({m.group(1)})")
            if d := re.fullmatch(_DATE, m.group(2).strip()):
                self.profile_time = _naive(self.ctx, d, 1)
            return
        if self.profile.line(raw):
            return
        if raw.startswith("Vuser ") or _LOG_BANNER.match(raw) or _CONSOLE.match(raw):
            self.run_log = True
        if m := _COUNT.match(raw):
            self.counter_log = True
            when = _naive(self.ctx, m, 4) if m.group(4) else None
            if m.group(4) and when is None:
                self.ctx.warn(no, "unreadable time: line skipped", kind="time")
                return
            value = float(m.group(1))
            metric = m.group(3)
            self.ctx.note_variant(f"transaction counter ({m.group(2)} {metric})")
            self.add(no, when, {metric: value, "tps": value / 60} if metric == "tpm" else {metric: value})
        elif _BANNER.match(raw):
            self.counter_log = True
        elif m := _USERS.match(raw):
            self.users = float(m.group(1))
        elif m := _STAMP.match(raw):
            self.stamp = _naive(self.ctx, m, 1)
        elif result := _result(raw):
            nopm, tpm = result
            self.ctx.note_variant("TEST RESULT lines (one point per run)")
            if tpm == 0 and nopm > 0:
                # New orders were counted in the schema while the server's transaction counter
                # read 0: HammerDB could not read that counter (no rights, another engine).
                self.ctx.warn(
                    no,
                    f"0 TPM with {nopm:g} NOPM: HammerDB could not read the server's transaction counter; TPM unknown",
                    kind="unreadable",
                )
                tpm = np.nan
            values = {"tpm": tpm, "tps": tpm / 60, "nopm": nopm, "thds": self.users}
            self.add(no, self.stamp, values)
            self.users, self.stamp = np.nan, None
        elif raw[:1].isdigit() and self.counter_log and not self.run_log and self.ctx.room():
            self.ctx.warn(no, f"not a HammerDB counter or result line: {raw[:60]!r}", kind="unreadable")


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    log = _Log(ctx)
    no = 0
    for data in chunks:
        for raw in text_lines(data):
            no += 1
            log.line(no, raw)
    profile = _profile(log, ctx)
    if not log.t and profile is None:
        if not ctx.warnings:
            ctx.warn(
                None,
                "no HammerDB `N <database> tpm` lines, TEST RESULT lines or time profile summary found",
                kind="format",
            )
        return
    if not log.t and profile is not None:
        # A report alone: one point per transaction, at the report's banner (the end of the run).
        log.timed = log.profile_time is not None
        log.t.append(log.profile_time if log.profile_time is not None else 0.0)
    naive = np.array(log.t)
    if log.timed:
        t = ctx.clock.wall(naive)
    else:
        t = ctx.clock.index(naive)
        ctx.meta.timing = Timing.INDEX
        ctx.note_variant("no timestamps")
    ctx.units.update({k: UNITS[k] for k, _ in log.rows})
    values = {k: np.array(v) for (k, _), v in log.rows.items() if not np.isnan(np.array(v)).all()}
    if values:
        yield Block("", t, values)
    if profile is not None:  # after a run log's results: at its last one
        at = t[-1:]
        for proc, metrics in profile.items():
            yield Block(proc, at, {k: np.array([v]) for k, v in metrics.items()})


def _profile(log: _Log, ctx: Context) -> dict[str, dict[str, float]] | None:
    """The run-wide block of a time profile report, {proc: {metric: value}}; None without one."""
    p = log.profile
    if not p.rows:
        if p.users or p.proc is not None:
            ctx.warn(
                None,
                "HammerDB time profile report without its run-wide block (`SUMMARY OF N ACTIVE VIRTUAL USERS`): "
                "cut short? its per-user blocks are not read",
                kind="truncated",
            )
        return None
    ctx.note_variant("time profile summary (per-transaction latency of the run)")
    out: dict[str, dict[str, float]] = {}
    for (metric, proc), v in p.rows.items():
        out.setdefault(proc, {})[metric] = v
        ctx.units[metric] = _xtprof.UNITS.get(metric, "ms")
    return out
