"""Tabular interval logs of a dbSTRESS-style injector (TPS and per-statement response times).

The dbSTRESS injector's own log layout is not published (see /work/shared/FORMATS.md): this module
accepts the tabular logs described there, exactly as follows. The fixtures in
tests/fixtures/dbstress are written by hand from that description, not captured.

Layout
- Lines before the header are a preamble: `RW=0`/`RW=1` anywhere in it -> meta.rw; a line that
  says statement response times are in milliseconds (`response time(s)`, `rt` or `latency` and
  `ms`/`millisecond(s)` on one line, e.g. `# response times in ms`) makes the statement columns
  without a unit suffix milliseconds.
- The header is the first line naming a throughput column AND a users column or at least one
  statement column (names below, case-insensitive, a leading `#` allowed). Its separator decides
  the file's: TAB if it has one, else `;`, else `,`, else runs of blanks. `,`/`;`/TAB cells may
  be double-quoted (CSV rules). A unit suffix may follow a name: `(unit)` or `[unit]` (any unit,
  blanks before it allowed) or `_`/`-` + `ms`, `us`, `s`, `sec`, `pct`; in a blank-separated
  header a lone `(ms)` token belongs to the name before it. Header cells containing `=` make the
  line a preamble line, not a header.
- One row per interval below it, with as many cells as the header (one more when a `timestamp`
  cell is written `YYYY-MM-DD HH:MM:SS` in a blank-separated file). A line naming the columns
  again is a new header (columns may change; series keep their names). Blank lines and lines
  starting with `#` are skipped; any other line that is not a row is a warning with its number.
- Numbers: `.` or `,` as decimal mark, decided per file by the first cell that has one (a
  `;`-separated log with `1,25` reads 1.25, never 125). A cell using the other mark then is
  unreadable (NaN + warning); an empty cell is NaN without warning. Values are kept as printed.

Columns
- time, seconds since the start: `time`, `t`, `sec`, `secs`, `seconds`, `elapsed` (a unit suffix
  such as `time(s)` allowed) holding plain numbers (`.`/`,` decimals; not `10s`, not `00:00:10`).
  Several runs in one log whose times go back (restart at 0, e.g. one run per users step) are
  placed back to back like sysbench: the new run's t = 0 is the previous run's last row (one
  interval later when its first row is at t = 0). ctx.meta.timing is RELATIVE, meta.last_relative
  is set and times go through ctx.clock.relative.
- absolute local times: a `timestamp`/`datetime` column (`YYYY-MM-DD HH:MM:SS[.f]`, `T` between
  date and time allowed, `/` in the date allowed) or a `date` column (`YYYY-MM-DD`) plus a `time`
  column (`HH:MM:SS[.f]`). No zone suffix. They go through ctx.clock.wall as naive seconds (timing
  WALL); meta.first_time/interval describe the first row.
- a time column whose first cell is not in these forms (epoch numbers or `22.11.2026` in a
  timestamp, a zone suffix, a `date` without a `time` column, clock times in `time` without a
  `date` column) is dropped with one warning: the log is then read as without time. A later row
  whose time cell is unreadable is skipped with a warning.
- no time column: row k (1, 2 ...) is placed by the folder clock (ctx.clock.index, timing INDEX,
  variant "no timestamps"), one row per --interval.
- users: `users`, `user`, `sessions`, `sess`, `threads`, `thds`, `conc`, `concurrency` -> metric
  `thds` (threads; the name sysbench uses, so drop detection cuts the run into its load steps).
- throughput: `tps`, `tx/s`, `trx/s`, `txn/s`, `transactions/s` -> metric `tps` (1/s).
- statements: `SEL1`, `SEL2`, `SEL`, `UPD`, `DEL`, `INS` (optionally followed by digits) and any
  other numeric column: in milliseconds (its own `ms` suffix; for statement names also the
  preamble line above) -> metric `rt_ms`, unit ms, entity = the name without its suffix (`SEL1`);
  otherwise the metric is the column name as printed, with the suffix's unit if it has one.
- a column whose first cell is text is ignored (warning once).
Steps: ctx.meta.user_steps = (first, last) row time of each run of rows with the same users value
(1, 2, 4 ... 256), in the time base handed to the clock (seconds since start, naive local seconds
or row number); meta.user_levels lists the levels.
"""

from __future__ import annotations

import calendar
import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing, append_row

name = "dbstress"

TIME = frozenset({"time", "t", "sec", "secs", "seconds", "elapsed"})
TIMESTAMP = frozenset({"timestamp", "datetime"})
USERS = frozenset({"users", "user", "sessions", "sess", "threads", "thds", "conc", "concurrency"})
TPS = frozenset({"tps", "tx/s", "trx/s", "txn/s", "transactions/s"})
_STATEMENT = re.compile(r"^(?:sel|upd|del|ins)\d*$", re.I)
_SUFFIX = re.compile(r"^(?P<base>.+?)\s*(?:\((?P<a>[^()]*)\)|\[(?P<b>[^\[\]]*)\]|[_-](?P<c>ms|us|s|sec|pct))$", re.I)
_UNIT_ONLY = re.compile(r"^(?:\([^()]*\)|\[[^\[\]]*\])$")
_MS_NOTE = re.compile(r"(?i)\b(?:response\s*times?|rt|latenc(?:y|ies))\b.*\b(?:ms|milliseconds?)\b")
_RW = re.compile(r"\bRW\s*=\s*([01])\b")
_INT = re.compile(r"^[+-]?\d+$")
_DOT = re.compile(r"^[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?$|^[+-]?\d+[eE][+-]?\d+$")
_COMMA = re.compile(r"^[+-]?(?:\d+,\d*|,\d+)$")  # the mirror of _DOT: `2,` reads like `2.`
_CLOCK = re.compile(r"^(\d{1,2}):(\d\d):(\d\d)(?:[.,](\d+))?$")
_DATE = re.compile(r"^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$")
_STAMP = re.compile(r"^(\d{4}[-/]\d{1,2}[-/]\d{1,2})[T ](\d{1,2}:\d\d:\d\d(?:[.,]\d+)?)$")
UNITS = {"tps": "1/s", "thds": "threads", "rt_ms": "ms"}


def _split(line: str, sep: str) -> list[str]:
    if sep == " ":
        return line.split()
    try:
        return [c.strip() for c in next(csv.reader([line], delimiter=sep))]
    except (csv.Error, StopIteration):
        return [c.strip() for c in line.split(sep)]


def _separator(line: str) -> str:
    return "\t" if "\t" in line else ";" if ";" in line else "," if "," in line else " "


def _name_unit(token: str) -> tuple[str, str]:
    """`SEL1(ms)` -> ("SEL1", "ms"); `tx/s` -> ("tx/s", "")."""
    m = _SUFFIX.match(token)
    if m is None:
        return token, ""
    unit = (m.group("a") or m.group("b") or m.group("c") or "").strip()
    return m.group("base").strip(), unit


@dataclass
class _Column:
    role: str  # time | timestamp | date | users | tps | value | skip
    metric: str = ""
    entity: str = ""
    printed: str = ""


@dataclass
class _Header:
    sep: str
    names: list[str]
    columns: list[_Column] = field(default_factory=list)

    def index(self, role: str) -> int | None:
        return next((i for i, c in enumerate(self.columns) if c.role == role), None)


def _header(line: str, ms_default: bool = False) -> _Header | None:
    """The column map of a header line, or None when the line is not a header."""
    text = line.strip().lstrip("#").strip()
    if not text or text[0].isdigit():
        return None
    sep = _separator(text)
    tokens = _header_cells(text, sep)
    if not tokens or any(not t or "=" in t for t in tokens):
        return None
    h = _Header(sep, tokens)
    seen: set[tuple[str, str]] = set()
    roles: set[str] = set()
    for tok in tokens:
        col = _column(tok, roles, ms_default)
        if col.role == "value" and _STATEMENT.match(_name_unit(tok)[0]):
            roles.add("statement")
        roles.add(col.role)
        key = (col.metric, col.entity)
        if col.role in ("value", "users", "tps"):
            if key in seen:
                col = _Column("skip", printed=tok)
            seen.add(key)
        h.columns.append(col)
    if "tps" not in roles or not ({"users", "statement"} & roles):
        return None
    return h


def _header_cells(text: str, sep: str) -> list[str]:
    tokens = _split(text, sep)
    if sep == " ":  # `SEL1 (ms)`: a lone unit belongs to the name before it
        merged: list[str] = []
        for tok in tokens:
            if merged and _UNIT_ONLY.match(tok):
                merged[-1] += tok
            else:
                merged.append(tok)
        tokens = merged
    return [t.strip().strip('"').strip() for t in tokens]


def _column(tok: str, roles: set[str], ms_default: bool) -> _Column:
    """What a header cell names (the first time, users, tps ... column of a header only)."""
    base, unit = _name_unit(tok)
    low, full = base.lower(), tok.lower()
    if low in TIME and "time" not in roles:
        return _Column("time", printed=tok)
    if low in TIMESTAMP and "timestamp" not in roles:
        return _Column("timestamp", printed=tok)
    if low == "date" and "date" not in roles:
        return _Column("date", printed=tok)
    if low in USERS and "users" not in roles:
        return _Column("users", "thds", "", tok)
    if (low in TPS or full in TPS) and "tps" not in roles:
        return _Column("tps", "tps", "", tok)
    if unit.lower() == "ms" or (ms_default and not unit and _STATEMENT.match(base)):
        return _Column("value", "rt_ms", base, tok)
    return _Column("value", tok, "", tok)


def _looks_numeric(cell: str) -> bool:
    return bool(
        _INT.match(cell)
        or _DOT.match(cell)
        or _COMMA.match(cell)
        or _CLOCK.match(cell)
        or _DATE.match(cell)
        or _STAMP.match(cell)
    )


def sniff(head: str) -> float:
    lines = [ln for ln in head.splitlines() if ln.strip()][:80]
    for i, line in enumerate(lines):
        h = _header(line)
        if h is None:
            continue
        below = [ln for ln in lines[i + 1 : i + 4] if not ln.lstrip().startswith("#")]
        if not below:
            return 0.0
        cells = _split(below[0].strip(), h.sep)
        if len(cells) in (len(h.columns), len(h.columns) + 1) and sum(map(_looks_numeric, cells)) * 2 > len(cells):
            return 0.9
    return 0.0


def _clock_seconds(text: str) -> float | None:
    m = _CLOCK.match(text)
    if m is None:
        return None
    h, mi, s = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if h > 23 or mi > 59 or s > 60:
        return None
    return h * 3600 + mi * 60 + s + (float("0." + m.group(4)) if m.group(4) else 0.0)


def _naive(date: str, clock: str) -> float | None:
    d, c = _DATE.match(date), _clock_seconds(clock)
    if d is None or c is None:
        return None
    y, mo, day = (int(x) for x in d.groups())
    if not (1 <= mo <= 12 and 1 <= day <= 31 and y >= 1970):  # a log is not older than the epoch
        return None
    try:
        return calendar.timegm((y, mo, day, 0, 0, 0)) + c
    except (ValueError, OverflowError):
        return None


class _Reader:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.header: _Header | None = None
        self.ms_default = False
        self.decimal = ""  # "." or "," once a cell with a decimal mark was seen
        self.mode = ""  # relative | absolute | index, from the first header with rows
        self.t: list[float] = []
        self.users: list[float] = []
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.text_columns: set[str] = set()
        self.checked = False
        self.offset = 0.0  # placement of the current run (relative logs)
        self.prev_t: float | None = None
        self.restarts = 0
        self.units: dict[tuple[str, str], str] = {}

    def number(self, line_no: int, cell: str, what: str) -> float:
        cell = cell.strip()
        if not cell:
            return np.nan
        if _INT.match(cell):
            return float(cell)
        mark = "." if _DOT.match(cell) else "," if _COMMA.match(cell) else ""
        if mark and self.decimal in ("", mark):
            if not self.decimal:
                self.decimal = mark
                if mark == ",":
                    self.ctx.note_variant("decimal comma")
            return float(cell.replace(",", "."))
        if cell.lower() in ("nan", "-nan"):
            return np.nan
        if self.ctx.room():
            why = f"the file uses {self.decimal!r} as decimal mark" if mark else "not a number"
            self.ctx.warn(line_no, f"{what}: {cell!r} unreadable ({why})", kind="unreadable")
        return np.nan

    def check_columns(self, line_no: int, cells: list[str], h: _Header) -> None:
        """On the first row under a header: text columns and unusable time columns."""
        for col, cell in zip(h.columns, cells, strict=False):
            if col.role in ("value", "users", "tps") and cell and not _looks_numeric(cell.strip()):
                col.role = "skip"
                if col.printed not in self.text_columns:
                    self.text_columns.add(col.printed)
                    self.ctx.warn(line_no, f"column {col.printed!r} holds text ({cell!r}): ignored", kind="column")

        # A time column this module cannot read is dropped once here (the log is then read as
        # without time) rather than warned on every row.
        def drop(i: int, why: str) -> None:
            self.ctx.warn(line_no, f"column {h.names[i]!r} ({cells[i]!r}) {why}: not read as times", kind="column")
            h.columns[i].role = "skip"

        ts, date, time = h.index("timestamp"), h.index("date"), h.index("time")
        if ts is not None:
            m = _STAMP.match(cells[ts].strip())
            if m is None or _naive(m.group(1), m.group(2)) is None:
                drop(ts, "is not YYYY-MM-DD HH:MM:SS")
            elif date is not None:
                drop(date, "is not needed with a timestamp column")
            return
        if date is not None:
            if time is None:
                drop(date, "has no time column")
            elif _naive(cells[date].strip(), cells[time].strip()) is None:
                drop(date, "with the time column is not YYYY-MM-DD HH:MM:SS")
                drop(time, "has no usable date")
            return
        if time is not None and not (_INT.match(cells[time]) or _DOT.match(cells[time]) or _COMMA.match(cells[time])):
            drop(time, "is not seconds since the start (clock times need a date column)")

    def row(self, line_no: int, line: str) -> None:
        h = self.header
        assert h is not None
        cells = _split(line.strip(), h.sep)
        ts = h.index("timestamp")
        n = len(h.columns)
        if h.sep == " " and ts is not None and len(cells) == n + 1 and _DATE.match(cells[ts]):
            cells[ts : ts + 2] = [cells[ts] + " " + cells[ts + 1]]
        if len(cells) != n:
            if self.ctx.room():
                self.ctx.warn(
                    line_no,
                    f"not a row: {len(cells)} cells, the header has {n}: {line.strip()[:60]!r}",
                    kind="unreadable",
                )
            return
        if not self.checked:
            self.check_columns(line_no, cells, h)
            self.checked = True
        t = self.time(line_no, cells, h)
        if t is None:
            return
        values: dict[tuple[str, str], float] = {}
        users = np.nan
        for col, cell in zip(h.columns, cells, strict=True):
            if col.role in ("value", "users", "tps"):
                v = self.number(line_no, cell, col.printed)
                values[(col.metric, col.entity)] = v
                if col.role == "users":
                    users = v
        append_row(self.rows, len(self.t), values)
        self.t.append(t)
        self.users.append(users)

    def time(self, line_no: int, cells: list[str], h: _Header) -> float | None:
        ts, date, time = h.index("timestamp"), h.index("date"), h.index("time")
        if ts is not None:
            m = _STAMP.match(cells[ts].strip())
            return self.placed(line_no, "absolute", _naive(m.group(1), m.group(2)) if m else None, cells)
        if date is not None and time is not None:
            return self.placed(line_no, "absolute", _naive(cells[date].strip(), cells[time].strip()), cells)
        if time is not None:
            t = self.number(line_no, cells[time], h.names[time])
            return self.placed(line_no, "relative", t if np.isfinite(t) else None, cells)  # 1e400 s: unreadable
        return self.placed(line_no, "index", float(len(self.t) + 1), cells)

    def placed(self, line_no: int, mode: str, t: float | None, cells: list[str]) -> float | None:
        if not self.mode:
            self.mode = mode
            self.ctx.note_variant(
                {
                    "relative": "seconds since start",
                    "absolute": "absolute local times",
                    "index": "no timestamps",
                }[mode]
            )
            if mode == "index":  # row k is placed by the folder clock
                self.ctx.meta.timing = Timing.INDEX
        elif mode != self.mode:
            if self.ctx.room():
                self.ctx.warn(
                    line_no, f"row timed differently ({mode}) from the rows above ({self.mode}): skipped", kind="time"
                )
            return None
        if t is None:
            if self.ctx.room():
                self.ctx.warn(line_no, f"unreadable time: {' '.join(cells)[:60]!r}", kind="time")
            return None
        if mode == "relative":
            if self.prev_t is not None and t <= self.prev_t:  # a new run in the same log: place it after
                last = self.t[-1]
                # its t = 0 is the previous run's last row; a first row at t = 0 goes one interval later
                gap = (self.t[-1] - self.t[-2]) if len(self.t) > 1 else 1.0
                self.offset = last if t > 0 else last + gap - t
                self.restarts += 1
            self.prev_t = t
            return self.offset + t
        if self.t and t <= self.t[-1] and self.ctx.room():
            self.ctx.warn(line_no, "time does not increase", kind="time")
        return t

    def line(self, line_no: int, raw: str) -> None:
        stripped = raw.strip()
        if not stripped:
            return
        h = _header(stripped, self.ms_default)
        if h is not None:
            if self.header is not None and h.names != self.header.names:
                self.ctx.note_variant("columns change mid-file")
            self.header, self.checked = h, False
            for c in h.columns:
                self.units.setdefault((c.metric, c.entity), _name_unit(c.printed)[1])
            return
        if self.header is None:  # preamble
            if m := _RW.search(stripped):
                self.ctx.meta.rw = int(m.group(1))
            if _MS_NOTE.search(stripped):
                self.ms_default = True
            return
        if stripped.startswith("#"):
            return
        self.row(line_no, stripped)


def _steps(t: np.ndarray, users: np.ndarray) -> tuple[list[tuple[float, float]], list[float]]:
    if not len(t):
        return [], []
    if np.isnan(users).all():
        return [(float(t[0]), float(t[-1]))], []
    steps, levels = [], []
    start = 0
    for i in range(1, len(t) + 1):
        if i == len(t) or not (users[i] == users[start] or (np.isnan(users[i]) and np.isnan(users[start]))):
            steps.append((float(t[start]), float(t[i - 1])))
            levels.append(float(users[start]))
            start = i
    return steps, levels


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    r = _Reader(ctx)
    line_no = 0
    for data in chunks:
        for raw in text_lines(data):
            line_no += 1
            r.line(line_no, raw)
    if r.header is None:
        if line_no:
            ctx.warn(None, "no header naming a TPS column and a users or statement column", kind="format")
        return
    if not r.t:
        ctx.warn(None, "no rows under the header", kind="format")
        return
    t = np.array(r.t)
    users = np.array(r.users)
    steps, levels = _steps(t, users)
    ctx.meta.user_steps = steps
    if levels:
        ctx.meta.user_levels = [int(u) if u.is_integer() else u for u in dict.fromkeys(levels) if not np.isnan(u)]
        if len(steps) > 1:
            ctx.note_variant(f"{len(steps)} load steps")
    if r.restarts:
        ctx.note_variant(f"{r.restarts + 1} runs in one log, placed one after the other")
    if r.mode == "relative":
        ctx.meta.timing = Timing.RELATIVE
        ctx.meta.last_relative = float(t[-1])
        times = ctx.clock.relative(t)
    elif r.mode == "absolute":
        ctx.meta.first_time = float(t[0])
        if len(t) > 1:
            ctx.meta.interval = float(np.median(np.diff(t)))
        times = ctx.clock.wall(t)
    else:
        times = ctx.clock.index(t)
    by_entity: dict[str, dict[str, np.ndarray]] = {}
    for (metric, entity), col in r.rows.items():
        v = np.array(col, dtype=np.float64)
        if np.isnan(v).all():
            continue
        by_entity.setdefault(entity, {})[metric] = v
        ctx.units[metric] = UNITS.get(metric, r.units.get((metric, entity), ""))
    for entity, values in by_entity.items():
        yield Block(entity, times, values)
