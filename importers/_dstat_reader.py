"""dstat's rows as series (importers/dstat.py finds them): the time of a row (the `time`
column, dool's `Nov-27 00:26:18`, an epoch column or a plugin's clock), its values with their
suffixes, the first row (dstat's and dool's since-boot report, dropped; pcp-dstat's first sample,
kept), settings columns, `missed N ticks` rows, and the facts of a CSV's banner (host, date and
zone, the interval in its command line)."""

from __future__ import annotations

import contextlib
import csv
import re
import shlex
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from benchlens.importers._dstat_layout import Column, Layout
from benchlens.importers._dstat_rows import MONTHS, Plan, Rows
from benchlens.importers._types import Block, Context, Setting, Timing, append_row

_VALUE = re.compile(r"(-?\d+(?:\.\d+)?)([BkMGTPb]?)")
_TIME = re.compile(r"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d+)?")
_DOOL_TIME = re.compile(r"([A-Z][a-z][a-z])-(\d\d) (\d\d):(\d\d):(\d\d)")  # dool: `Nov-27 00:26:18`
_EPOCH = re.compile(r"\d{9,11}(?:\.\d+)?")
_DATE = re.compile(r'"Date:","((\d\d) (\w\w\w) (\d{4}) (\d\d):(\d\d):(\d\d)|\d\d \w\w\w (\d{4}) [\d:]+) ?([A-Za-z]*)"')
_HOST = re.compile(r'^"Host:","([^"]*)"')
# options of dstat 0.7, dool and pcp-dstat that take an argument (the next word, unless attached)
_ARG_SHORT = frozenset("CDILMNoPS")
_ARG_LONG = frozenset({"--output", "--pidfile", "--diskset"})
_SUFFIX = {"": 0, "B": 0, "k": 1, "M": 2, "G": 3, "T": 4, "P": 5}
_DAY = 86400.0


class Reader:
    """Rows of one file, whatever their layout: times, and values by (metric, entity)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.t: list[float] = []  # naive local seconds, epochs (epoch column) or report numbers
        self.pieces: list[tuple[np.ndarray, dict[tuple[str, str], np.ndarray]]] = []  # t and rows so far
        self.kind = ""  # "time", "epoch" or "index": what self.t holds
        self.reports = 0  # rows seen, the since-boot one included (report numbers)
        self.year: int | None = None  # of the CSV's Date row
        self.last_month = 0
        self.warned: set[str] = set()
        self.clock = ""  # the plugin whose Time column is the clock (DBPA's `mysql5 time`)
        self.started: float | None = None  # the CSV's Date row: local seconds (naive) at launch
        self.pcp = False  # pcp-dstat: no since-boot first row (PCP needs two samples for a rate)
        self.settings: dict[str, tuple[str, int]] = {}  # setting columns: name -> (value, line)
        self.sizes: list[int] = []  # CSV: the columns of each group of the layout in force

    def row(self, no: int, layout: Layout, cells: list[str], missed: int = 0) -> None:
        """One data row: cells[i] is the text under layout.columns[i]; `missed`: the N of the
        row's `missed N ticks` (dstat skipped N - 1 reports before it)."""
        if missed > 1 and self.kind == "index":
            self.reports += missed - 1  # the skipped reports' numbers: this row's is its real one
        self.reports += 1
        when = self._when(no, layout, cells)
        if when is None:
            return
        if self.reports == 1 and layout.spans and not self.pcp and any(not c for c in cells):
            # pcp-dstat's text prints its first row with the rate columns blank: PCP needs two
            # samples for a rate; dstat and dool print every column of their since-boot row
            self.pcp = True
            self.ctx.note_variant("pcp-dstat (first row without rates)")
        if self.reports == 1:
            self._launch(no, layout, cells, when)
        if self.reports == 1 and not self.pcp:  # dstat's and dool's first row: counters since boot
            self.ctx.warn(None, "first report is the average since boot; dropped", kind="since_boot")
            return
        if missed > 1:
            self.ctx.warn(
                no,
                f"dstat missed {missed - 1} report(s) before this row (`missed {missed} ticks`): "
                f"its time is kept; its rates count {missed} intervals over one",
                kind="time",
            )
        values: dict[tuple[str, str], float] = {}
        for col, cell in zip(layout.columns, cells, strict=True):
            if col.metric:
                v = self._value(no, col, cell, layout.scaled)
                if v is not None:
                    values[(col.metric, col.entity)] = v * col.factor
            elif col.setting and cell.strip():
                v = self._value(no, col, cell, layout.scaled)
                if v is not None:
                    self._setting(no, col.setting, v)
        if not values and self.pcp:
            return  # pcp-dstat's first row with only rates: its time is the launch, no sample
        append_row(self.rows, len(self.t), values)
        self.t.append(when)

    def _launch(self, no: int, layout: Layout, cells: list[str], when: float) -> None:
        """The first row's time as the launch, in local wall-clock seconds as the folder clock
        takes it: an epoch row's from its `time` column (-t with -T), else from the offset between
        the CSV's Date row (local, at launch) and the epoch (the offset is kept: zone evidence)."""
        meta = self.ctx.meta
        if meta.launch is not None:
            return  # a second run appended to the CSV: the file's launch is its first run's
        if self.kind == "time":
            meta.launch = when
        elif self.kind == "epoch" and self.started is not None:
            offset = round((self.started - when) / 900.0) * 900.0  # zones are whole quarter hours
            if abs(self.started - when - offset) <= 120:
                meta.utc_offset, meta.launch = offset, when + offset
        elif self.kind == "epoch" and layout.time is not None:
            m = _TIME.fullmatch(cells[layout.time].strip())
            if m is not None:
                meta.launch = self._naive(no, *(int(x) for x in m.groups()))

    def _setting(self, no: int, name: str, v: float) -> None:
        """A settings column's value (dool's `mysql5 settings`): the first one kept, a change warned."""
        text = str(int(v)) if v == int(v) else repr(v)
        if name not in self.settings:
            self.settings[name] = (text, no)
        elif self.settings[name][0] != text and name not in self.warned:
            self.warned.add(name)
            was, line = self.settings[name]
            text = f"setting {name} changed from {was} (line {line}) to {text}: the first kept"
            self.ctx.warn(no, text, kind="other")

    def _when(self, no: int, layout: Layout, cells: list[str]) -> float | None:
        kind = "epoch" if layout.epoch is not None else "time" if layout.time is not None else "index"
        if layout.epoch is not None:
            self.clock = layout.columns[layout.epoch].entity  # a plugin's clock (`mysql5 time`) or ""
        if self.kind and kind != self.kind:
            self.ctx.warn(no, f"rows timed by {kind} after rows timed by {self.kind}: skipped", kind="time")
            return None
        self.kind = kind
        if kind == "index":
            return float(self.reports - 1)
        if kind == "epoch":
            text = cells[layout.epoch or 0].strip()
            if _EPOCH.fullmatch(text):
                return float(text)
        elif m := _TIME.fullmatch(cells[layout.time or 0].strip()):
            return self._naive(no, *(int(x) for x in m.groups()))
        elif (m := _DOOL_TIME.fullmatch(cells[layout.time or 0].strip())) and m.group(1) in MONTHS:
            return self._naive(no, int(m.group(2)), MONTHS[m.group(1)], *(int(x) for x in m.groups()[2:]))
        self.ctx.warn(no, "unreadable time: row skipped", kind="time")
        return None

    def _naive(self, no: int, day: int, month: int, hh: int, mm: int, ss: int) -> float | None:
        if self.year is None:
            self.year = latest_year(month, day)
            self.ctx.warn(
                None, f"dstat prints no year: {self.year} taken (the latest one not in the future)", kind="time"
            )
        elif month < self.last_month:
            self.year += 1  # December -> January
        try:
            naive = datetime(self.year, month, day, hh, mm, ss, tzinfo=UTC).timestamp()
        except ValueError:
            self.ctx.warn(no, "unreadable time: row skipped", kind="time")
            return None
        self.last_month = month
        return naive

    def _value(self, no: int, col: Column, cell: str, scaled: bool) -> float | None:
        text = cell.strip()
        m = _VALUE.fullmatch(text)
        if m is None or m.group(2) == "b":
            if text not in ("-", "") and self.ctx.room():
                what = "a --bits value" if m is not None else "not a number"
                self.ctx.warn(no, f"{col.metric} {col.entity}: {text[:20]!r} is {what}; no sample", kind="unreadable")
            return None
        v = float(m.group(1))
        power = _SUFFIX[m.group(2)]
        if power and scaled:
            v *= float(col.base) ** power
        return v if np.isfinite(v) else None

    def _seal(self) -> None:
        """The rows read one by one so far become a piece (arrays) before rows read all at once."""
        if self.t:
            self.pieces.append((np.array(self.t), {key: np.array(v) for key, v in self.rows.items()}))
        self.t, self.rows = [], {}

    def taken(self, layout: Layout, plan: Plan, got: Rows) -> bool:
        """Rows read all at once (importers/_dstat_rows.py) appended; False (nothing done) when
        their times need the one-by-one reading (a bad date, another kind of time)."""
        n = len(got.values)
        kind = "epoch" if layout.epoch is not None else "time" if layout.time is not None else "index"
        if self.reports == 0 or (self.kind and kind != self.kind):
            return False
        self.kind = kind
        if kind == "time":
            naive = self._naive_all(got.clock)
            if naive is None:
                return False
        elif kind == "epoch":
            naive = got.values[:, plan.epoch].copy()
        else:
            naive = np.arange(self.reports, self.reports + n, dtype=float)
        self._seal()
        rows: dict[tuple[str, str], np.ndarray] = {}
        for f, c in enumerate(plan.columns):
            col = layout.columns[c]
            if col.metric:
                key, v = (col.metric, col.entity), got.values[:, f] * col.factor
                rows[key] = np.where(np.isnan(v), rows[key], v) if key in rows else v
        self.pieces.append((naive, rows))
        self.reports += n
        return True

    def _naive_all(self, clock: np.ndarray) -> np.ndarray | None:
        """_naive for many rows (day, month, hh, mm, ss): None when one of them is not a date."""
        day, month, hh, mm, ss = clock.T
        year = self.year if self.year is not None else latest_year(int(month[0]), int(day[0]))
        before = np.concatenate(([self.last_month if self.year is not None else month[0]], month[:-1]))
        years = year + np.cumsum(month < before)
        if not ((month >= 1) & (month <= 12) & (hh < 24) & (mm < 60) & (ss < 60) & (day >= 1)).all():
            return None
        first = (years - 1970).astype("datetime64[Y]").astype("datetime64[M]") + (month - 1)
        days = (first + 1).astype("datetime64[D]") - first.astype("datetime64[D]")
        if (day > days.astype(np.int64)).any():
            return None
        if self.year is None:
            self.ctx.warn(None, f"dstat prints no year: {year} taken (the latest one not in the future)", kind="time")
        self.year, self.last_month = int(years[-1]), int(month[-1])
        epoch_days = first.astype("datetime64[D]").astype(np.int64) + day - 1
        return (epoch_days * 86400 + hh * 3600 + mm * 60 + ss).astype(float)

    def _columns(self) -> tuple[np.ndarray, dict[tuple[str, str], np.ndarray]]:
        """All pieces as one time array and one column per series (NaN where a piece lacks it)."""
        self._seal()
        t = np.concatenate([piece[0] for piece in self.pieces])
        keys = dict.fromkeys(key for _, rows in self.pieces for key in rows)
        columns = {
            key: np.concatenate([rows[key] if key in rows else np.full(len(pt), np.nan) for pt, rows in self.pieces])
            for key in keys
        }
        return t, columns

    def blocks(self) -> Iterator[Block]:
        for name, (value, line) in self.settings.items():
            self.ctx.meta.settings.append(Setting("variables", name, value, line))
        if not self.t and not self.pieces:
            return
        naive, columns = self._columns()
        delay = self.ctx.meta.interval
        if delay is not None and delay > 1 and ("mysql5_conn.ThCon", "") in columns:
            # dool's mysql5-conn plugin divides its gauges by the elapsed seconds (its source:
            # `set2[name] * 1.0 / elapsed`): right at a 1-s delay only
            self.ctx.warn(
                None,
                f"mysql5 conn ThCon/ThRun are dool's Threads_connected/Threads_running divided by the "
                f"delay ({delay:g} s): read as printed",
                kind="other",
            )
        if self.kind == "time":
            t = self.ctx.clock.wall(naive)
            self.ctx.note_variant("time column (-t)")
        elif self.kind == "epoch":
            t = naive
            self.ctx.note_variant(f"plugin clock ({self.clock}: Time)" if self.clock else "epoch column (-T)")
        else:
            t = self.ctx.clock.index(naive)
            self.ctx.meta.timing = Timing.INDEX
            self.ctx.note_variant("no time column")
        by_entity: dict[str, dict[str, np.ndarray]] = {}
        for (metric, entity), v in columns.items():
            if not np.isnan(v).all():
                by_entity.setdefault(entity, {})[metric] = v
        for entity, values in by_entity.items():
            yield Block(entity, t, values)


def latest_year(month: int, day: int) -> int:
    """The latest year in which day-month is not after today (a text capture prints no year)."""
    today = datetime.now(UTC).date()
    year = today.year
    if (month, day) > (today.month, today.day):
        year -= 1
    if month == 2 and day == 29:
        while year % 4 or (year % 100 == 0 and year % 400):
            year -= 1
    return year


def interval_of(command: str) -> float | None:
    """The delay of a dstat/dool/pcp-dstat command line: its first positional number (`dstat -tc
    --output f.csv 5 10` -> 5; `dool --noupdate 5` -> 5), None when it has none or is unreadable."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    k = 1
    while k < len(words):
        word = words[k]
        if word == "--":
            k += 1
            break
        if word.startswith("--"):
            k += 2 if word in _ARG_LONG else 1
        elif word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            # `-tcD vda`: the first letter that takes an argument takes the rest, or the next word
            at = next((i for i, ch in enumerate(word[1:], 1) if ch in _ARG_SHORT), None)
            k += 2 if at is not None and at == len(word) - 1 else 1
        else:
            break
    if k < len(words) and re.fullmatch(r"\d+(?:\.\d+)?", words[k]):
        delay = float(words[k])
        return delay if delay > 0 else None
    return None


def banner_fact(line: str, reader: Reader) -> bool:
    """The Author/Host/Cmdline/Date rows of the CSV banner (their facts kept): True if it was one."""
    meta = reader.ctx.meta
    if m := _HOST.match(line):
        meta.host = meta.host or m.group(1)
    elif m := _DATE.search(line):
        reader.year = int(m.group(4) or m.group(8))
        if m.group(3) in MONTHS:  # the local time dstat was started at (an epoch row gives its offset)
            day, hh, mm, ss = (int(m.group(k)) for k in (2, 5, 6, 7))
            with contextlib.suppress(ValueError):
                stamp = datetime(reader.year, MONTHS[m.group(3)], day, hh, mm, ss, tzinfo=UTC)
                reader.started = stamp.timestamp()
        if m.group(9) and meta.zone_abbrev is None:
            meta.zone_abbrev = m.group(9)
    elif not line.startswith(('"Author:"', '"Cmdline:"')):
        return False
    if line.startswith('"Cmdline:"'):
        try:
            cells = next(csv.reader([line]))
        except csv.Error:
            cells = []
        # the interval only from the command's own words: never a number of the Date cell
        delay = interval_of(cells[1]) if len(cells) > 1 else None
        meta.interval = meta.interval or delay
    return True
