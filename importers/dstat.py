"""dstat: the terminal text (`dstat [-t] [-T] -cdngy ... interval [count]`) and the `--output FILE`
CSV, as dstat 0.7.x (Debian's 0.7.4 prints "Dstat 0.8.0") and dool write them.

Variants covered (fixtures in tests/fixtures/dstat, MANIFEST there):
- text: two header lines, a group line (`----system---- --total-cpu-usage-- -dsk/total-`) over a
  column line (`     time     |usr sys idl wai stl| read  writ`); each group's values sit under
  its title, so rows are cut at the title's columns (`|` between plugins, `:` between the names of
  one plugin such as `-D vda,total`). Values carry dstat's unit suffixes (`2113k`, `13M`, `312B`,
  `20.7G`; a `-` is no value); headers repeated every screen and ANSI colours (a terminal
  capture, `script(1)`) are read too. dstat prints the same under any locale (C, de_DE, fr_FR
  captured): no decimal comma, no translated labels;
- CSV: the banner rows (`"Dstat 0.8.0 CSV output"`, Author, Host, Cmdline, Date, an empty row in
  0.7.2), a group row and a column row (`"cpu0 usage:usr"` for plugins with several names), then
  raw numbers; a second banner (dstat appends to an existing file) starts a new layout.

Times: the `time` column (`-t`, `dd-mm HH:MM:SS` local time) or the `epoch` column (`-T`, UTC
epochs; preferred when both are there) make the file WALL-timed. The text prints no year: the
CSV's `Date:` row gives it, else the latest year in which the first row's day is not in the future
is taken (a `time` warning says so); rows roll into the next year after December. Without
either column rows are INDEX-timed (report k at launch + k x interval; the CSV's Cmdline gives
the interval). The first row is the average since boot (dstat's counters since boot): dropped
with a warning, its time kept as the launch.

Metrics: `<group>.<column>`, the group as dstat titles it with the device, interface or CPU moved
to the entity: `cpu.usr` (entity `total`, `0`, `1` ...), `dsk.read`/`dsk.writ` (`total`, `vda`),
`net.recv`/`net.send` (`total`, `eth0`), `io.read`, `memory.used`, `swap.free`, `paging.in`,
`system.int`/`system.csw`, `load.1m`, `procs.run`; other plugins by their title (`tcp.act`,
`most_expensive...` values that are not numbers are skipped with a warning). Units: cpu %,
dsk/net B/s, memory/swap B, io/paging/system/int 1/s, others as printed. Suffixes scale by 1024
for dstat's byte plugins (dsk, net, memory, swap, paging: dstat's scale 1024) and by 1000 for
the others (io, system, interrupts, sockets ...); `--bits` output (`b` suffix) is not read.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Iterator
from datetime import UTC, datetime

import numpy as np

from benchlens.importers._dstat_layout import Column, Layout, csv_layout, text_layout, title_line
from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing, append_row

name = "dstat"

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_VALUE = re.compile(r"(-?\d+(?:\.\d+)?)([BkMGTPb]?)")
_TIME = re.compile(r"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d+)?")
_EPOCH = re.compile(r"\d{9,11}(?:\.\d+)?")
_BANNER = re.compile(r'^"(Dstat|Dool) ([\w.]+) CSV output"')
_DATE = re.compile(r'"Date:","\d\d \w\w\w (\d{4}) [\d:]+ ?([A-Za-z]*)"')
_HOST = re.compile(r'^"Host:","([^"]*)"')
_CMDLINE_DELAY = re.compile(r'^"Cmdline:","[^"]*?\s(\d+)(?:\s+\d+)?"')
_SUFFIX = {"": 0, "B": 0, "k": 1, "M": 2, "G": 3, "T": 4, "P": 5}
_DAY = 86400.0


def sniff(head: str) -> float:
    """dstat's CSV banner, or a text header: a group line of dash-padded titles over a column line."""
    lines = [_ANSI.sub("", line).rstrip("\r") for line in head.splitlines()[:40]]
    if any(_BANNER.match(line) for line in lines[:3]):
        return 0.95
    for a, b in itertools.pairwise(lines):
        if text_layout(a, b) is not None:
            return 0.9
    return 0.0


class _Reader:
    """Rows of one file, whatever their layout: times, and values by (metric, entity)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.t: list[float] = []  # naive local seconds, epochs (epoch column) or report numbers
        self.kind = ""  # "time", "epoch" or "index": what self.t holds
        self.reports = 0  # rows seen, the since-boot one included (report numbers)
        self.year: int | None = None  # of the CSV's Date row
        self.last_month = 0
        self.warned: set[str] = set()

    def row(self, no: int, layout: Layout, cells: list[str]) -> None:
        """One data row: cells[i] is the text under layout.columns[i]."""
        self.reports += 1
        when = self._when(no, layout, cells)
        if when is None:
            return
        if self.reports == 1:  # dstat's first row: counters since boot
            self.ctx.warn(None, "first report is the average since boot; dropped", kind="since_boot")
            if self.kind != "index":
                self.ctx.meta.launch = when
            return
        values: dict[tuple[str, str], float] = {}
        for col, cell in zip(layout.columns, cells, strict=True):
            if col.metric:
                v = self._value(no, col, cell, layout.scaled)
                if v is not None:
                    values[(col.metric, col.entity)] = v
        append_row(self.rows, len(self.t), values)
        self.t.append(when)

    def _when(self, no: int, layout: Layout, cells: list[str]) -> float | None:
        kind = "epoch" if layout.epoch is not None else "time" if layout.time is not None else "index"
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
        self.ctx.warn(no, "unreadable time: row skipped", kind="time")
        return None

    def _naive(self, no: int, day: int, month: int, hh: int, mm: int, ss: int) -> float | None:
        if self.year is None:
            self.year = _latest_year(month, day)
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
            if text != "-" and self.ctx.room():
                what = "a --bits value" if m is not None else "not a number"
                self.ctx.warn(no, f"{col.metric} {col.entity}: {text[:20]!r} is {what}; no sample", kind="unreadable")
            return None
        v = float(m.group(1))
        power = _SUFFIX[m.group(2)]
        if power and scaled:
            v *= float(col.base) ** power
        return v if np.isfinite(v) else None

    def blocks(self) -> Iterator[Block]:
        if not self.t:
            return
        naive = np.array(self.t)
        if self.kind == "time":
            t = self.ctx.clock.wall(naive)
            self.ctx.note_variant("time column (-t)")
        elif self.kind == "epoch":
            t = naive
            self.ctx.note_variant("epoch column (-T)")
        else:
            t = self.ctx.clock.index(naive)
            self.ctx.meta.timing = Timing.INDEX
            self.ctx.note_variant("no time column")
        by_entity: dict[str, dict[str, np.ndarray]] = {}
        for (metric, entity), column in self.rows.items():
            v = np.array(column)
            if not np.isnan(v).all():
                by_entity.setdefault(entity, {})[metric] = v
        for entity, values in by_entity.items():
            yield Block(entity, t, values)


def _latest_year(month: int, day: int) -> int:
    """The latest year in which day-month is not after today (a text capture prints no year)."""
    today = datetime.now(UTC).date()
    year = today.year
    if (month, day) > (today.month, today.day):
        year -= 1
    if month == 2 and day == 29:
        while year % 4 or (year % 100 == 0 and year % 400):
            year -= 1
    return year


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    reader = _Reader(ctx)
    csv_mode: bool | None = None
    state = _State()
    for data in chunks:
        for raw in text_lines(data):
            state.no += 1
            line = _ANSI.sub("", raw) if "\x1b" in raw else raw
            if csv_mode is None and line.strip():
                csv_mode = bool(_BANNER.match(line)) or line.startswith('"')
            if csv_mode:
                _csv_line(line, state, reader)
            else:
                _text_line(line, state, reader)
    if not reader.t and not ctx.warnings:
        ctx.warn(None, "no dstat rows (a header line over a column line, then values) found", kind="format")
    ctx.units.update(state.units)
    yield from reader.blocks()


class _State:
    """Where the reading of one file stands: the layout in force and the line before."""

    def __init__(self) -> None:
        self.no = 0
        self.layout: Layout | None = None
        self.previous = ""  # text: the line before (a group line waits for its column line)
        self.groups: list[str] | None = None  # CSV: the group row, waiting for the column row
        self.units: dict[str, str] = {}

    def use(self, layout: Layout, ctx: Context) -> None:
        if self.layout is not None and layout.columns != self.layout.columns:
            ctx.note_variant("several layouts")
        self.layout = layout
        for col in layout.columns:
            if col.metric:
                self.units[col.metric] = col.unit


def _text_line(line: str, state: _State, reader: _Reader) -> None:
    layout = text_layout(state.previous, line)
    state.previous = line
    if layout is not None:
        state.use(layout, reader.ctx)
        reader.ctx.note_variant("text")
        return
    if state.layout is None or not line.strip() or title_line(line):
        return  # before the first header, blank, or a group line waiting for its columns
    cells = state.layout.cut(line)
    if cells is None:
        if reader.ctx.room():
            reader.ctx.warn(state.no, f"not a dstat row: {line[:60]!r}", kind="unreadable")
        return
    reader.row(state.no, state.layout, cells)


def _csv_line(line: str, state: _State, reader: _Reader) -> None:
    ctx = reader.ctx
    if m := _BANNER.match(line):
        ctx.meta.tool_version = ctx.meta.tool_version or f"{m.group(1)} {m.group(2)}"
        state.layout, state.groups = None, None
        reader.reports = 0  # a new run appended to the file: its first row is since boot again
        ctx.note_variant("CSV (--output)")
        return
    if _banner_fact(line, reader):
        return
    try:
        cells = next(csv.reader([line]))
    except csv.Error:
        cells = []
    if state.layout is None:
        if state.groups is None:
            state.groups = cells if any(cells) else None
        else:
            layout = csv_layout(state.groups, cells)
            state.groups = None
            if layout is not None:
                state.use(layout, ctx)
        return
    if len(cells) != len(state.layout.columns):
        if line.strip() and ctx.room():
            ctx.warn(
                state.no, f"{len(cells)} fields where the header names {len(state.layout.columns)}", kind="unreadable"
            )
        return
    reader.row(state.no, state.layout, cells)


def _banner_fact(line: str, reader: _Reader) -> bool:
    """The Author/Host/Cmdline/Date rows of the CSV banner (their facts kept): True if it was one."""
    meta = reader.ctx.meta
    if m := _HOST.match(line):
        meta.host = meta.host or m.group(1)
    elif m := _DATE.search(line):
        reader.year = int(m.group(1))
        if m.group(2) and meta.zone_abbrev is None:
            meta.zone_abbrev = m.group(2)
    elif not line.startswith(('"Author:"', '"Cmdline:"')):
        return False
    if m := _CMDLINE_DELAY.match(line):
        meta.interval = meta.interval or float(m.group(1)) or None
    return True
