"""pidstat (sysstat): `pidstat [-u] [-d] [-r] [-w] [-t] [-h] [-l] [-C REGEX | -p PID,...|ALL] interval [count]`.

Variants covered (fixtures in tests/fixtures/pidstat, MANIFEST there; sysstat 12.6.1):
- one block per report kind (`-u` `%usr %system %guest %wait %CPU CPU`, `-d` `kB_rd/s kB_wr/s
  kB_ccwr/s iodelay`, `-r` `minflt/s majflt/s VSZ RSS %MEM`, `-w` `cswch/s nvcswch/s`, and any other
  numeric columns such as `-s`/`-v`), each under its own header line, repeated every interval;
- `-h`: every report kind on one line per process under a `# Time ...` header (sysstat 10.x prints
  `#      Time`); the time is the clock time (12.x) or epoch seconds (10.x: read as UTC epochs);
  a `date` line before the banner (collector scripts print one) is taken as the zone's evidence;
- `-1.00` in `kB_rd/s kB_wr/s kB_ccwr/s`: pidstat could not read the task's `/proc/PID/io` (not
  run as root): no sample there (NaN), warned once, never -1 kB/s;
- `-t`: `TGID TID` columns; a process row (`TID` is `-`) is followed by its threads' rows
  (`TGID` is `-`, command printed `|__name`);
- rows timed `16:57:16` (24 h) or `04:57:16 PM` (12 h): no date in rows, so the banner's date
  (`11/23/26`, `11/23/2026`, `23.11.2026`, ISO `2026-11-23`) is used and the day rolls over when
  the time of day goes back by more than 12 h (midnight);
- the summary in any language (`Average:`, `Durchschn.:`, `Moyenne :`) is skipped; decimal comma;
  `-l` command lines with spaces (the command is everything after the last numeric column; a
  row whose command would start with a number does not fit its header and is skipped);
- a file of `Average:` rows only (`pidstat 5 1 | grep Average`, a capture cut down to its summary):
  recognised and refused in one warning that says so (averages have no time to place them at).

Metrics are the column names pidstat prints (`%usr`, `%system`, `%CPU`, `kB_rd/s`, `kB_wr/s`,
`minflt/s`, `VSZ`, `RSS`, `%MEM`, `cswch/s`, `nvcswch/s`, `iodelay` ...). Not kept: the identity
columns `UID`/`USER`, `PID`/`TGID`/`TID`, `Command`, and `CPU` (the processor the task last ran on,
a label rather than a measure), and text columns (`-R`'s `policy`).
Entity: the command name and the PID, `mysqld 1234`; with `-t` a thread is `mysqld 1234/1250`
(process, then thread id; the process row itself stays `mysqld 1234`). pidstat prints only the tasks
that were active in an interval (unless `-p` names them), so a series has samples only where its
task was printed: no zeros are invented. A single report without an interval (`pidstat` alone:
averages since each task started, timed like its header) is dropped with a warning; so is a lone
`-h` report, which prints no header time to tell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers._read import prepend
from benchlens.importers._snapshots import marker_time
from benchlens.importers._text import text_lines
from benchlens.importers._times import CLOCK_TEXT
from benchlens.importers._types import Block, Context

name = "pidstat"

IDENTITY = {"UID", "USER", "PID", "TGID", "TID", "CPU", "Command"}
TEXT_COLUMNS = {"policy"}  # -R
# a row's time: `16:57:16` (24 h), `04:57:16 PM` (12 h, two words), `16時57分16秒` (ja_JP),
# `16时57分16秒` (zh_CN) or `16시 57분 16초` (ko_KR, three words)
_CLOCK = re.compile(r"(\d\d):(\d\d):(\d\d)|(\d\d)[時时](\d\d)分(\d\d)秒")
_KO_CLOCK = (re.compile(r"(\d\d)시"), re.compile(r"(\d\d)분"), re.compile(r"(\d\d)초"))
_ANY_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_EPOCH = re.compile(r"\d{9,11}")
_SNIFF = re.compile(rf"^(?:{CLOCK_TEXT}|#\s+Time)\s+(?:UID|USER)\s+(?:PID|TGID)\s.*\sCommand\s*$", re.M)
# the summary's header in any language (`Average:`, `Durchschn.:`, `Moyenne :`): a file of these only
_SNIFF_SUMMARY = re.compile(r"^[^\d\s:]\S*\s?:\s+(?:UID|USER)\s+(?:PID|TGID)\s.*\sCommand\s*$", re.M)
# -d's columns, which pidstat prints as -1.00 when it cannot read the task's /proc/PID/io
IO_COLUMNS = {"kB_rd/s", "kB_wr/s", "kB_ccwr/s"}
MIDNIGHT_BACK = 43200  # a time of day earlier than the last by more than 12 h is the next day


def sniff(head: str) -> float:
    if _SNIFF.search(head):
        return 0.95
    return 0.9 if _SNIFF_SUMMARY.search(head) else 0.0  # averages only: claimed, to be refused by name


def unit(metric: str) -> str:
    if metric.startswith("%"):
        return "%"
    if metric.startswith("kB_"):
        return "kB/s"
    if metric.endswith("/s"):
        return "1/s"
    if metric in ("VSZ", "RSS", "StkSize", "StkRef"):
        return "kB"
    if metric == "iodelay":
        return "ticks"  # clock ticks spent waiting for block I/O in the interval
    return ""


@dataclass
class _Header:
    cols: list[str]  # the column names after the time, `Command` last
    keep: list[tuple[int, str]]  # (position among the values, metric)


@dataclass
class _Series:
    t: list[float] = field(default_factory=list)
    values: dict[str, list[float]] = field(default_factory=dict)


class _Reader:
    def __init__(self, decimal: str, ctx: Context) -> None:
        self.ctx = ctx
        self.number = re.compile(r"-?\d+(?:,\d+)?" if decimal == "," else r"-?\d+(?:\.\d+)?")
        self.comma = decimal == ","
        self.day: int | None = None
        self.banner_seen = False
        self.last_sec = -1
        self.header: _Header | None = None
        self.headers: dict[tuple[str, ...], _Header] = {}
        self.tgid = "-"  # the process of the thread rows that follow (-t)
        self.series: dict[tuple[str, tuple[str, ...]], _Series] = {}
        self.times: set[float] = set()
        self.summary = False
        self.header_t: float | None = None  # the time on the header line in force (not with -h)
        self.interval = False  # a row timed after its header: the report covers an interval
        self.no_io: tuple[int, int] | None = None  # (first line, rows) of -1.00 I/O: not available
        if self.comma:
            ctx.note_variant("decimal comma")

    def line(self, no: int, line: str) -> None:
        words = line.split()
        if not words:
            return
        k = self._time_tokens(words)
        if k == 0:
            if _is_summary(words):
                self.summary = True  # 'Average:' in any language: averages of the rows above
            elif words[0] == "#" and len(words) > 2 and words[1] == "Time":
                self.ctx.note_variant("one line per task (-h)")
                self.header_t = None
                self._header(words[2:])
            elif not self.banner_seen and ss.BANNER.match(line):
                self._banner(line)
            elif not self.banner_seen and self.header is None and marker_time(line, self.ctx) is not None:
                self.ctx.note_variant("a date line before the banner")  # a collector's `date; pidstat ...`
            elif self.ctx.room():
                self.ctx.warn(no, f"not a pidstat line: {line.strip()[:80]!r}", kind="unreadable")
            return
        rest = words[k:]
        if rest and rest[-1] == "Command" and not self.number.fullmatch(rest[0]):
            # the time the report's interval started: it also rolls the day over at midnight
            self.header_t = self._time(no, words[:k])
            self._header(rest)
        else:
            self._row(no, words[:k], rest)

    def _time_tokens(self, words: list[str]) -> int:
        if _CLOCK.fullmatch(words[0]):
            return 2 if len(words) > 1 and words[1] in ("AM", "PM", "am", "pm") else 1
        if _ko_clock(words) is not None:
            return 3
        return 1 if _EPOCH.fullmatch(words[0]) and len(words) > 1 else 0

    def _banner(self, line: str) -> None:
        date = ss.parse_banner(line, self.ctx)
        if date is None:
            return
        self.banner_seen = True
        self.day = ss.banner_day(date, "," if self.comma else ".")

    def _header(self, cols: list[str]) -> None:
        key = tuple(cols)
        header = self.headers.get(key)
        if header is None:
            values = cols[:-1]
            keep = [(j, c) for j, c in enumerate(values) if c not in IDENTITY and c not in TEXT_COLUMNS]
            for _, m in keep:
                self.ctx.units[m] = unit(m)
            if "TID" in values:
                self.ctx.note_variant("threads (-t)")
            header = self.headers[key] = _Header(cols, keep)
        self.header = header

    def _row(self, no: int, stamp: list[str], rest: list[str]) -> None:
        header = self.header
        if header is None:
            if self.ctx.room():
                self.ctx.warn(no, "a row before any pidstat header; skipped", kind="unreadable")
            return
        n = len(header.cols) - 1
        if len(rest) <= n:
            self.ctx.warn(no, f"{len(rest)} fields where the header has {n + 1}; skipped", kind="unreadable")
            return
        values = rest[:n]
        if _ANY_NUMBER.fullmatch(rest[n]):  # more numbers than the header names: not its row
            self.ctx.warn(no, f"{len(rest)} fields where the header has {n + 1}; skipped", kind="unreadable")
            return
        got: dict[str, float] = {}
        for j, metric in header.keep:
            if not self.number.fullmatch(values[j]):
                self.ctx.warn(no, f"{metric} is not a number: {values[j][:20]!r}; row skipped", kind="unreadable")
                return
            got[metric] = float(values[j].replace(",", ".")) if self.comma else float(values[j])
        missing = [m for m in IO_COLUMNS.intersection(got) if got[m] == -1.0]
        for m in missing:
            got[m] = np.nan  # pidstat's "not available": a gap, not -1 kB/s
        if missing:
            self.no_io = (self.no_io[0] if self.no_io else no, self.no_io[1] + 1 if self.no_io else 1)
        entity = self._entity(header.cols, values, " ".join(rest[n:]))
        t = self._time(no, stamp)
        if entity is None or t is None:
            if self.ctx.room():
                self.ctx.warn(no, f"no PID or time in {' '.join(rest)[:60]!r}; skipped", kind="unreadable")
            return
        s = self.series.setdefault((entity, tuple(got)), _Series())
        s.t.append(t)
        for m, v in got.items():
            s.values.setdefault(m, []).append(v)
        self.times.add(t)
        self.interval = self.interval or (self.header_t is not None and t != self.header_t)

    def _entity(self, cols: list[str], values: list[str], command: str) -> str | None:
        def col(name: str) -> str | None:
            return values[cols.index(name)] if name in cols else None

        pid, tgid, tid = col("PID"), col("TGID"), col("TID")
        if pid is not None:
            return f"{command} {pid}" if pid.isdigit() else None
        if tgid is not None and tgid.isdigit():
            self.tgid = tgid
            return f"{command} {tgid}"
        if tid is not None and tid.isdigit():
            return f"{command.removeprefix('|__')} {self.tgid}/{tid}"
        return None

    def _time(self, no: int, stamp: list[str]) -> float | None:
        if _EPOCH.fullmatch(stamp[0]):
            self.ctx.note_variant("epoch times (-h, sysstat before 11)")
            return float(stamp[0])
        got = _hms(stamp)
        if got is None:
            return None
        (hh, mm, sec), local = got
        if len(stamp) == 1 or local:
            self.ctx.note_variant("24-hour times" + (f" ({local})" if local else ""))
        else:
            self.ctx.note_variant("12-hour AM/PM times")
            if not 1 <= hh <= 12:
                return None
            hh = hh % 12 + (12 if stamp[1] in ("PM", "pm") else 0)
        if hh > 23 or mm > 59 or sec > 60:
            return None
        secs = hh * 3600 + mm * 60 + sec
        if self.day is None:
            self.ctx.warn(no, "no banner with a date; rows dated 1970-01-01", kind="time")
            self.day = 0
        if self.last_sec - secs > MIDNIGHT_BACK:
            self.day += 1
        self.last_sec = secs
        return float(self.ctx.clock.wall(np.array([float(self.day * 86400 + secs)]))[0])


def _hms(stamp: list[str]) -> tuple[tuple[int, int, int], str] | None:
    """Hour, minute and second of a row's time, and its CJK layout (`hh時mm分ss秒` ...) if it has one."""
    if m := _CLOCK.fullmatch(stamp[0]):
        if m[1]:
            return (int(m[1]), int(m[2]), int(m[3])), ""
        return (int(m[4]), int(m[5]), int(m[6])), ss.LOCAL_CLOCKS[stamp[0][2]]  # 時 or 时
    ko = _ko_clock(stamp)
    return (ko, ss.LOCAL_CLOCKS["시"]) if ko else None


def _ko_clock(words: list[str]) -> tuple[int, int, int] | None:
    """h, m, s of a ko_KR time, `16시 57분 16초` (three words)."""
    if len(words) < 3:
        return None
    parts = [rx.fullmatch(w) for rx, w in zip(_KO_CLOCK, words, strict=False)]
    return (int(parts[0][1]), int(parts[1][1]), int(parts[2][1])) if all(parts) else None  # type: ignore[index]


def _is_summary(words: list[str]) -> bool:
    """'Average:', 'Durchschn.:', 'Moyenne :' (a word ending in ':' or a lone ':' after it)."""
    first = words[0] + ":" if len(words) > 1 and words[1] == ":" else words[0]
    return len(first) > 1 and first.endswith(":") and not first[0].isdigit()


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    first = next(chunks, None)
    if first is None:
        return
    reader = _Reader(ss.detect_decimal(first[: 64 << 10].decode("utf-8", "replace")), ctx)
    no = 0
    for data in prepend(first, chunks):
        for line in text_lines(data):
            no += 1
            reader.line(no, line)
    if reader.no_io is not None:
        first_no, rows = reader.no_io
        ctx.warn(
            first_no,
            f"{rows} rows print -1.00 for kB_rd/s kB_wr/s kB_ccwr/s: pidstat could not read those tasks' "
            "/proc/PID/io (not run as root?); no samples there",
            kind="unreadable",
        )
    if not reader.series:
        if reader.summary and not reader.times:
            ctx.warn(
                None,
                "pidstat averages only (`Average:` rows, no timed samples): nothing to place in time",
                kind="format",
            )
        elif not ctx.warnings:
            ctx.warn(
                None, "no pidstat rows (a time, a PID and numbers under a `... PID ... Command` header)", kind="format"
            )
        return
    # `pidstat` without an interval prints one report timed like its header, and no summary; a
    # single `-h` report cannot tell (no header time): read as since-start too
    if len(reader.times) == 1 and not reader.summary and not reader.interval:
        ctx.warn(
            None,
            "a single report without an interval is the average since each task started; dropped",
            kind="since_boot",
        )
        return
    times = sorted(reader.times)
    ctx.meta.first_time = times[0]
    if ctx.meta.interval is None and len(times) > 1:
        ctx.meta.interval = times[1] - times[0]
    for (entity, _), s in reader.series.items():
        yield Block(entity, np.array(s.t, np.float64), {m: np.array(v, np.float64) for m, v in s.values.items()})
