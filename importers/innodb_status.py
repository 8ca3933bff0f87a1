"""SHOW ENGINE INNODB STATUS (MySQL 5.0 to 8.0, Percona Server / XtraDB, MariaDB 10.x), one or
many snapshots per file.

Variants covered (fixtures in tests/fixtures/innodb_status, from ../shared/samples/innodb_status
and captures of MariaDB 10.11):
- wrappers: `\\G` (`*** 1. row ***` / `Type: InnoDB` / `Name:` / `Status:` then the text), batch mode
  (`mysql -B -e "SHOW ENGINE INNODB STATUS"`: a `Type<TAB>Name<TAB>Status` header, then the whole status
  on ONE line `InnoDB<TAB><TAB>...` with literal `\\n` escapes, unescaped here; `-N` and `-r` forms too),
  and bare text;
- headers `YYMMDD HH:MM:SS INNODB MONITOR OUTPUT` (MySQL <= 5.6, e.g. `100831  8:56:28`) and
  `YYYY-MM-DD HH:MM:SS <thread id> INNODB MONITOR OUTPUT` (MySQL 5.7+, MariaDB 10.2+; the thread id is
  `0x7f...` or decimal in Percona 8.0);
- MySQL 5.0 two-part LSNs (`Log sequence number 208 1379356250` = 208 * 2**32 + 1379356250);
  XtraDB `Max checkpoint age` / `Checkpoint age` lines; the 8.0.30+ LOG section (`Log minimum file id
  is`, `Checkpoint age`); MariaDB 10.6+ (empty SEMAPHORES section, `Percent of dirty pages` line);
- several buffer pool instances: only the totals of `BUFFER POOL AND MEMORY` are read, never the
  `---BUFFER POOL n` blocks of `INDIVIDUAL BUFFER POOL INFO`;
- sections in any order, sections missing; keys are only read inside their own section (a query text
  in TRANSACTIONS cannot fake a value);
- truncated output (no `END OF INNODB MONITOR OUTPUT`, e.g. the 64 KB limit of 5.1, or a file cut
  mid-snapshot): the values of its complete lines are kept (the last line may be cut: its values are
  dropped) with a warning;
- several snapshots in one file, each timed by its own header (a naive local wall-clock time, placed by
  the folder clock), or by the marker line before it (`TS <epoch> <date>`, ISO, `date` output: see
  _snapshots), which wins when both exist. One snapshot per file (pt-stalk) gives single points.

Metrics (entity ""): gauges per snapshot `checkpoint_age` (B: `Log sequence number` - `Last checkpoint
at`, or the `Checkpoint age` line when that is all there is), `history_list_length` (undo log units,
unit ""), `buffer_pool_size`, `free_buffers`, `database_pages`, `modified_db_pages` (pages); rates between
consecutive snapshots, at the later one's time: `log_bytes/s` (LSN delta, B/s), `pages_read/s`,
`pages_created/s`, `pages_written/s` (pages/s, from `Pages read N, created N, written N`), and from
SEMAPHORES when printed `mutex_spin_waits/s`, `mutex_rounds/s`, `mutex_os_waits/s`,
`rw_{shared,excl,sx}_{spins,rounds,os_waits}/s` (1/s; the old one-line form `RW-shared spins 4, OS waits
4; RW-excl spins 0, OS waits 0` gives spins and OS waits only). A counter that goes down is a restart:
no rate for that interval (see _counters). The `/s` averages InnoDB prints itself are not read.
Other lines of the status are ignored; lines outside any status that are not wrapper lines are warned.
Not this format: SHOW ENGINE INNODB MUTEX (`Status: os_waits=...`), refused by sniff.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from benchlens.importers._counters import Snapshots
from benchlens.importers._snapshots import Snapshot, snapshots
from benchlens.importers._types import Block, Context

name = "innodb_status"

GAUGE_UNITS = {
    "checkpoint_age": "B",
    "history_list_length": "",
    "buffer_pool_size": "pages",
    "free_buffers": "pages",
    "database_pages": "pages",
    "modified_db_pages": "pages",
}
SEMAPHORE_COUNTERS = [
    "mutex_spin_waits",
    "mutex_rounds",
    "mutex_os_waits",
    *(f"rw_{kind}_{what}" for kind in ("shared", "excl", "sx") for what in ("spins", "rounds", "os_waits")),
]
# Units of the rates, keyed by the counter (the series is named counter + "/s").
RATE_UNITS = {
    "log_bytes": "B/s",
    "pages_read": "pages/s",
    "pages_created": "pages/s",
    "pages_written": "pages/s",
    **dict.fromkeys(SEMAPHORE_COUNTERS, "1/s"),
}

_HEADER = re.compile(
    r"^\s*(?:(?P<yy>\d\d)(?P<mo2>\d\d)(?P<dd2>\d\d)|(?P<yyyy>\d{4})-(?P<mo>\d\d)-(?P<dd>\d\d))"
    r"\s+(?P<h>\d{1,2}):(?P<mi>\d\d):(?P<s>\d\d)(?:\s+\S+)?\s+INNODB MONITOR OUTPUT\s*$"
)
_END = "END OF INNODB MONITOR OUTPUT"
_DASHES = re.compile(r"^-{3,}$")
_TITLE = re.compile(r"^[A-Z][A-Z0-9 /&,_()-]*[A-Z)]$")
_ROW = re.compile(r"^\*+ \d+\. row \*+$")
_STATUS_CELL = re.compile(r"^\s*Status:\s?(.*)$")
# the client's wrapping: \G row, batch header, row count, and the `mysql -v` statement echo
_WRAPPER = re.compile(
    r"^(?:\s*Type: InnoDB|\s*Name:.*|Type\tName\tStatus|=+|\d+ rows? in set.*|\s*|-{14}|SHOW ENGINE INNODB STATUS.*)$",
    re.I,
)
_BATCH = re.compile(r"^InnoDB\t[^\t]*\t(.*)$")
_ESCAPE = re.compile(r"\\(.)", re.S)
_UNESCAPE = {"n": "\n", "t": "\t", "0": "\0", "\\": "\\"}
_INT = re.compile(r"^\d+$")
_LSN = re.compile(r"^(\d{1,20})(?:\s+(\d{1,20}))?$")  # a 64-bit number has at most 20 digits
_PAGES = re.compile(r"^(\d+), created (\d+), written (\d+)$")
_SPINS = re.compile(r"^(\d+), rounds (\d+), OS waits (\d+)$")
_RW_OLD = re.compile(r"^(\d+), OS waits (\d+); RW-excl spins (\d+), OS waits (\d+)$")
_SNIFF_G = re.compile(r"^\s*Type: InnoDB\s*$", re.M)
_SNIFF_STATUS = re.compile(r"^\s*Status:[ \t]*(?:=*[ \t]*)$", re.M)  # not the mutex listing's `Status: os_waits=1`

# (section, line prefix, what): the keys read, each only inside its section.
_KEYS: dict[str, list[tuple[str, str]]] = {
    "LOG": [
        ("Log sequence number", "lsn"),
        ("Last checkpoint at", "checkpoint"),
        ("Checkpoint age target", "xtradb"),
        ("Checkpoint age", "checkpoint_age_line"),
        ("Log minimum file id is", "redo_files"),
    ],
    "TRANSACTIONS": [("History list length", "history_list_length")],
    "BUFFER POOL AND MEMORY": [
        ("Buffer pool size,", "skip"),  # `Buffer pool size, bytes`
        ("Buffer pool size", "buffer_pool_size"),
        ("Free buffers", "free_buffers"),
        ("Database pages", "database_pages"),
        ("Modified db pages", "modified_db_pages"),
        ("Pages read ahead", "skip"),
        ("Pages read ", "pages"),
        ("Percent of dirty pages", "mariadb"),
    ],
    "SEMAPHORES": [
        ("Mutex spin waits ", "mutex"),
        ("RW-shared spins ", "rw_shared"),
        ("RW-excl spins ", "rw_excl"),
        ("RW-sx spins ", "rw_sx"),
    ],
}
_MAX_OUTSIDE = 5  # garbage lines outside any status warned one by one; the rest are counted
# Lines that say which server wrote the status: noted in the variant, no value read.
_FEATURE_LINES = {
    "xtradb": "XtraDB checkpoint lines",
    "redo_files": "8.0.30+ LOG section",
    "mariadb": "MariaDB (dirty pages percent line)",
}


def sniff(head: str) -> float:
    if "INNODB MONITOR OUTPUT" in head:
        return 0.95
    if _SNIFF_G.search(head) and _SNIFF_STATUS.search(head):
        return 0.95
    return 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    reader = _Reader(ctx)
    for snap in snapshots(chunks, ctx):
        reader.snapshot(snap)
    reader.finish()
    blocks = [*reader.gauges.totals(ctx, GAUGE_UNITS), *reader.counters.rates(ctx, RATE_UNITS, suffix="/s")]
    if reader.statuses and not any(len(b.t) and b.values for b in blocks):
        ctx.warn(None, "no gauge read in the InnoDB status, and rates need two statuses", kind="format")
    yield from blocks


class _Status:
    """One InnoDB status being read: its section, and the values found so far."""

    def __init__(self, line_no: int, wrapper: str, t: float | None, naive: float | None, style: str) -> None:
        self.line_no = line_no  # of the header
        self.wrapper = wrapper
        self.t = t  # from a marker (epoch), else None
        self.naive = naive  # header time as naive seconds, or None when unreadable
        self.style = style
        self.section: str | None = None
        self.prev_dashes = False
        self.in_instance = False  # inside a `---BUFFER POOL n` block
        self.n = 0  # non-blank lines fed (batch lines all share one file line number)
        self.values: dict[str, tuple[float, int]] = {}  # key -> (value, n of its line)
        self.features: list[str] = []
        self.bad_bytes = 0
        self.first_bad: int | None = None


class _Reader:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.gauges = Snapshots()
        self.counters = Snapshots()
        self.cur: _Status | None = None
        self.wrapper = "bare text"
        self.outside = 0
        self.statuses = 0
        self.marker_t: float | None = None  # the marker time not yet given to a status
        self.marker_line = 0
        self.shared_marker = False

    # ---- input -----------------------------------------------------------------------------

    def snapshot(self, snap: Snapshot) -> None:
        if self.cur is not None:  # a marker line ends the status before it
            self._close(truncated=True)
        self.marker_t, self.marker_line, self.shared_marker = snap.t, snap.first_line - 1, False
        self.wrapper = "bare text"
        for i, raw in enumerate(snap.lines):
            line_no = snap.first_line + i
            for text in self._unwrap(raw):
                self._line(line_no, text)

    def finish(self) -> None:
        if self.cur is not None:
            self._close(truncated=True)
        if self.outside > _MAX_OUTSIDE:
            self.ctx.warn(
                None, f"{self.outside - _MAX_OUTSIDE} more lines outside any InnoDB status ignored", kind="limit"
            )
        if not self.statuses:
            self.ctx.warn(None, "no InnoDB status found (no `INNODB MONITOR OUTPUT` header)", kind="format")

    def _unwrap(self, raw: str) -> list[str]:
        """The status lines a file line stands for: batch cells unescaped, \\G wrapper lines removed."""
        if raw.startswith("InnoDB\t") and (m := _BATCH.match(raw)):
            if self.cur is not None:
                self._close(truncated=True)
            self.wrapper = "batch (-B)"
            cell = m.group(1)
            if "\\n" in cell:
                return _ESCAPE.sub(lambda e: _UNESCAPE.get(e.group(1), e.group(0)), cell).split("\n")
            return [cell]  # -r (raw): the text goes on, one line per line
        if _ROW.match(raw):
            if self.cur is not None:
                self._close(truncated=True)
            return []
        if self.cur is None and (m := _STATUS_CELL.match(raw)):
            self.wrapper = "\\G"
            return [m.group(1)] if m.group(1).strip() else []
        return [raw]

    def _line(self, line_no: int, text: str) -> None:
        s = text.rstrip()
        if "INNODB MONITOR OUTPUT" in s and (m := _HEADER.match(s)):
            self._open(line_no, m)
        elif self.cur is None:
            self._outside(line_no, s)
        elif s == _END:
            self._close(truncated=False)
        elif s:
            self._status_line(self.cur, line_no, s)

    def _outside(self, line_no: int, s: str) -> None:
        if _WRAPPER.match(s):
            return
        self.outside += 1
        if self.outside <= _MAX_OUTSIDE:
            self.ctx.warn(line_no, f"not part of an InnoDB status: {s[:80]!r}", kind="unreadable")

    def _status_line(self, cur: _Status, line_no: int, s: str) -> None:
        if "\x00" in s or "\ufffd" in s:
            cur.bad_bytes += 1
            cur.first_bad = cur.first_bad or line_no
            return
        cur.n += 1
        if _DASHES.match(s):
            cur.prev_dashes = True
            return
        if cur.prev_dashes and _TITLE.match(s):
            cur.section, cur.in_instance, cur.prev_dashes = s, False, False
            if s == "INDIVIDUAL BUFFER POOL INFO":
                cur.features.append("several buffer pool instances (totals used)")
            return
        cur.prev_dashes = False
        keys = _KEYS.get(cur.section or "")
        if keys is None:
            return
        if s.startswith("---BUFFER POOL"):
            cur.in_instance = True
            return
        if cur.in_instance:
            return
        for prefix, what in keys:
            if s.startswith(prefix):
                self._value(cur, line_no, what, s[len(prefix) :].strip(), s)
                return

    # ---- values ----------------------------------------------------------------------------

    def _value(self, cur: _Status, line_no: int, what: str, rest: str, line: str) -> None:
        if what == "skip":
            return
        if what in _FEATURE_LINES:
            cur.features.append(_FEATURE_LINES[what])
            return
        found = _numbers(cur, what, rest)
        if not found:
            self.ctx.warn(line_no, f"unreadable number in {line[:80]!r}; skipped", kind="unreadable")
            return
        for key, v in found.items():
            cur.values.setdefault(key, (v, cur.n))  # the first wins

    # ---- one status ------------------------------------------------------------------------

    def _open(self, line_no: int, m: re.Match[str]) -> None:
        if self.cur is not None:
            self._close(truncated=True)
        naive: float | None
        try:
            if m["yyyy"]:
                y, mo, d = int(m["yyyy"]), int(m["mo"]), int(m["dd"])
                style = "YYYY-MM-DD header (MySQL 5.7+ / MariaDB 10.2+)"
            else:
                y, mo, d = 2000 + int(m["yy"]), int(m["mo2"]), int(m["dd2"])
                style = "YYMMDD header (MySQL <= 5.6)"
            if y < 1970:
                raise ValueError("a status is not older than the epoch")
            naive = datetime(y, mo, d, int(m["h"]), int(m["mi"]), int(m["s"]), tzinfo=UTC).timestamp()
        except ValueError:
            naive, style = None, "unreadable header"
        t = None
        if self.marker_t is not None:
            if not self.shared_marker:
                t = self.marker_t
                self.shared_marker = True
            else:
                self.ctx.warn(
                    line_no,
                    f"another InnoDB status after the marker of line {self.marker_line}: timed by its own header",
                    kind="time",
                )
        self.cur = _Status(line_no, self.wrapper, t, naive, style)
        self.wrapper = "bare text"

    def _close(self, truncated: bool) -> None:
        cur, self.cur = self.cur, None
        if cur is None:
            return
        ctx = self.ctx
        if cur.bad_bytes:
            ctx.warn(cur.first_bad, f"{cur.bad_bytes} line(s) with binary or non-UTF-8 bytes ignored", kind="encoding")
        if truncated:
            last = {k for k, (_, n) in cur.values.items() if n == cur.n}
            for k in last:  # the last line may have been cut: "History list length 4|2"
                del cur.values[k]
            ctx.warn(
                cur.line_no,
                f"InnoDB status has no `{_END}` (truncated): kept the {len(cur.values)} values of its complete lines",
                kind="truncated",
            )
        vals = {k: v for k, (v, _) in cur.values.items()}
        if not vals:
            ctx.warn(cur.line_no, "InnoDB status without any value read; skipped", kind="unreadable")
            return
        if cur.t is not None:
            t = cur.t
        elif cur.naive is not None:
            t = float(ctx.clock.wall(np.array([cur.naive]))[0])
        else:
            ctx.warn(cur.line_no, "unreadable InnoDB status header time and no marker: status skipped", kind="time")
            return
        self.statuses += 1
        for v in (cur.style, cur.wrapper, *cur.features, *(["truncated"] if truncated else [])):
            ctx.note_variant(v)
        self.gauges.add(t, self._gauges(cur, vals))
        counters = {("", k): vals[k] for k in RATE_UNITS if k in vals}
        if "lsn" in vals:
            counters[("", "log_bytes")] = vals["lsn"]
        if counters:
            self.counters.add(t, counters)

    def _gauges(self, cur: _Status, vals: dict[str, float]) -> dict[tuple[str, str], float]:
        gauges: dict[tuple[str, str], float] = {}
        if "lsn" in vals and "checkpoint" in vals:
            age = vals["lsn"] - vals["checkpoint"]
            if age >= 0:
                gauges[("", "checkpoint_age")] = age
            else:
                self.ctx.warn(
                    cur.line_no,
                    "Last checkpoint at is beyond the log sequence number: no checkpoint age",
                    kind="unreadable",
                )
        elif "checkpoint_age_line" in vals:
            gauges[("", "checkpoint_age")] = vals["checkpoint_age_line"]
        for k in GAUGE_UNITS:
            if k in vals:
                gauges[("", k)] = vals[k]
        return gauges


def _numbers(cur: _Status, what: str, rest: str) -> dict[str, float]:
    """The values a status line gives (none when unreadable); format features noted on `cur`."""
    found: dict[str, float] = {}
    if what in ("lsn", "checkpoint"):
        m = _LSN.match(rest)
        if m and m.group(2) is not None:
            found[what] = float((int(m.group(1)) << 32) + int(m.group(2)))
            cur.features.append("two-part LSN (MySQL 5.0)")
        elif m:
            found[what] = float(m.group(1))
    elif what == "pages":
        if m := _PAGES.match(rest):
            found.update(zip(("pages_read", "pages_created", "pages_written"), map(float, m.groups()), strict=True))
    elif what == "mutex":
        if m := _SPINS.match(rest):
            found.update(zip(SEMAPHORE_COUNTERS[:3], map(float, m.groups()), strict=True))
    elif what.startswith("rw_"):
        if m := _SPINS.match(rest):
            found.update(
                zip((f"{what}_spins", f"{what}_rounds", f"{what}_os_waits"), map(float, m.groups()), strict=True)
            )
        elif what == "rw_shared" and (m := _RW_OLD.match(rest)):
            keys = ("rw_shared_spins", "rw_shared_os_waits", "rw_excl_spins", "rw_excl_os_waits")
            found.update(zip(keys, map(float, m.groups()), strict=True))
            cur.features.append("one-line RW-shared/RW-excl (<= 5.1)")
    elif _INT.match(rest):
        found[what] = float(rest)
    return found
