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

Speed: the rows of a layout are read all at once (importers/_dstat_rows.py: a text row is a line
of fixed windows, a CSV row plain numbers), and only the rows that this refuses, and the header
lines, one by one as above; both give the same values and warnings (tests/importers/
test_dstat_rows.py). bench/dstat_speed.py measures it.
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import re
import shlex
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import numpy as np

from benchlens.importers import _dstat_rows
from benchlens.importers._dstat_layout import Column, Layout, csv_layout, pcp_row, text_layout, title_line
from benchlens.importers._dstat_rows import MONTHS, Plan, Rows
from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Setting, Timing, append_row

name = "dstat"

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# dool draws its header and separators with box characters (its ASCII ones with --ascii): ┄ for
# the title's dashes, ┬ ┼ between titles, │ between plugins, ┊ between the names of one plugin
_BOX = str.maketrans("\u2504\u252c\u253c\u2502\u250a", "-  |:")
_BOX_BYTES = b"\xe2\x94"  # UTF-8 of U+2500..U+253F
_VALUE = re.compile(r"(-?\d+(?:\.\d+)?)([BkMGTPb]?)")
_TIME = re.compile(r"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d+)?")
_DOOL_TIME = re.compile(r"([A-Z][a-z][a-z])-(\d\d) (\d\d):(\d\d):(\d\d)")  # dool: `Nov-27 00:26:18`
_EPOCH = re.compile(r"\d{9,11}(?:\.\d+)?")
_BANNER = re.compile(r'^"(Dstat|Dool|dool|pcp-dstat) ([\w.]+) CSV [Oo]utput"')
_MISSED = re.compile(r"\s+missed (\d+) ticks\s*$")
_DATE = re.compile(r'"Date:","((\d\d) (\w\w\w) (\d{4}) (\d\d):(\d\d):(\d\d)|\d\d \w\w\w (\d{4}) [\d:]+) ?([A-Za-z]*)"')
_HOST = re.compile(r'^"Host:","([^"]*)"')
# options of dstat 0.7, dool and pcp-dstat that take an argument (the next word, unless attached)
_ARG_SHORT = frozenset("CDILMNoPS")
_ARG_LONG = frozenset({"--output", "--pidfile", "--diskset"})
_SUFFIX = {"": 0, "B": 0, "k": 1, "M": 2, "G": 3, "T": 4, "P": 5}
_DAY = 86400.0


def sniff(head: str) -> float:
    """dstat's CSV banner, or a text header: a group line of dash-padded titles over a column line."""
    lines = [_plain(line).rstrip("\r") for line in head.splitlines()[:40]]
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
        self.pieces: list[tuple[np.ndarray, dict[tuple[str, str], np.ndarray]]] = []  # t and rows so far
        self.kind = ""  # "time", "epoch" or "index": what self.t holds
        self.reports = 0  # rows seen, the since-boot one included (report numbers)
        self.year: int | None = None  # of the CSV's Date row
        self.last_month = 0
        self.warned: set[str] = set()
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
            self._launch(layout, cells, when)
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

    def _launch(self, layout: Layout, cells: list[str], when: float) -> None:
        """The first row's time as the launch, in local wall-clock seconds as the folder clock
        takes it: an epoch row's from its `time` column (-t with -T), else from the offset between
        the CSV's Date row (local, at launch) and the epoch (the offset is kept: zone evidence)."""
        meta = self.ctx.meta
        if self.kind == "time":
            meta.launch = when
        elif self.kind == "epoch" and self.started is not None:
            offset = round((self.started - when) / 900.0) * 900.0  # zones are whole quarter hours
            if abs(self.started - when - offset) <= 120:
                meta.utc_offset, meta.launch = offset, when + offset
        elif self.kind == "epoch" and layout.time is not None:
            m = _TIME.fullmatch(cells[layout.time].strip())
            if m is not None:
                meta.launch = self._naive(0, *(int(x) for x in m.groups()))

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
        year = self.year if self.year is not None else _latest_year(int(month[0]), int(day[0]))
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
        for (metric, entity), v in columns.items():
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
        if csv_mode is None:
            csv_mode = _is_csv(data)
        if csv_mode is False and b"\x1b" not in data and b"\r" not in data and _BOX_BYTES not in data:
            _text_chunk(data, state, reader)
            continue
        for raw in text_lines(data):
            state.no += 1
            line = _plain(raw)
            if csv_mode is None and line.strip():
                csv_mode = bool(_BANNER.match(line)) or line.startswith('"')
            if csv_mode:
                _csv_line(line, state, reader)
            else:
                _text_line(line, state, reader)
        _flush(state, reader)
    if not reader.t and not reader.pieces and not ctx.warnings:
        ctx.warn(None, "no dstat rows (a header line over a column line, then values) found", kind="format")
    ctx.units.update(state.units)
    yield from reader.blocks()


def _plain(line: str) -> str:
    """A line without colours and with dool's box characters as dstat's ASCII ones."""
    line = _ANSI.sub("", line) if "\x1b" in line else line
    return line.translate(_BOX) if not line.isascii() else line


def _is_csv(data: bytes) -> bool | None:
    """What the first line that is not blank says (None: no such line yet)."""
    for raw in text_lines(data[:65536]):
        line = _plain(raw)
        if line.strip():
            return bool(_BANNER.match(line)) or line.startswith('"')
    return None


class _State:
    """Where the reading of one file stands: the layout in force and the line before."""

    def __init__(self) -> None:
        self.no = 0
        self.layout: Layout | None = None
        self.previous = ""  # text: the line before (a group line waits for its column line)
        self.titles = False  # text: the line before is a group line (a header may follow)
        self.groups: list[str] | None = None  # CSV: the group row, waiting for the column row
        self.units: dict[str, str] = {}
        self.plan: Plan | None = None  # text: the layout's fixed windows (rows read all at once)
        self.pending: list[str] = []  # text: data rows of the layout in force, not read yet
        self.pending_no: list[int] = []

    def use(self, layout: Layout, ctx: Context, group_line: str = "") -> None:
        if self.layout is not None and layout.columns != self.layout.columns:
            ctx.note_variant("several layouts")
        self.layout = layout
        self.plan = _dstat_rows.plan(layout, group_line) if layout.spans else _dstat_rows.csv_plan(layout)
        for col in layout.columns:
            if col.metric:
                self.units[col.metric] = col.unit


def _text_line(line: str, state: _State, reader: _Reader) -> None:
    # a group line holds only dash-padded titles: never `|` or `:`, which every row of two plugins
    # or with a time has; only such a line after one can be a header
    titles = "-" in line and "|" not in line and ":" not in line and title_line(line)
    layout = text_layout(state.previous, line) if state.titles else None
    group_line, state.previous, state.titles = state.previous, line, titles
    if layout is not None:
        _flush(state, reader)
        state.use(layout, reader.ctx, group_line)
        reader.ctx.note_variant("text")
        return
    if state.layout is None or titles or not line.strip():
        return  # before the first header, a group line waiting for its columns, or blank
    state.pending.append(line)
    state.pending_no.append(state.no)


_BATCH = 8192  # rows read at once: bounds the byte matrices (rows x width x 8 bytes at most)


def _flush(state: _State, reader: _Reader) -> None:
    """The pending rows of the layout in force: all at once where they fit its plan, else (and the
    since-boot first row, whose time sets the file's) one by one."""
    lines, nos, layout, plan = state.pending, state.pending_no, state.layout, state.plan
    state.pending, state.pending_no = [], []
    if layout is not None and not layout.spans:
        _csv_rows(nos, lines, layout, plan, reader)
        return
    k = 0
    while layout is not None and k < len(lines):
        if plan is None or reader.reports == 0:
            _one(nos[k], lines[k], layout, reader)
            k += 1
            continue
        end = min(k + _BATCH, len(lines))
        _batch(nos[k:end], lines[k:end], layout, plan, reader)
        k = end


def _batch(nos: list[int], lines: list[str], layout: Layout, plan: Plan, reader: _Reader) -> None:
    m, fits = _dstat_rows.matrix(lines, plan)
    got = _dstat_rows.read(m, plan)
    got = Rows(got.ok & fits, got.values[fits[got.ok]], got.clock[fits[got.ok]])
    _take(got, lambda k: _one(nos[k], lines[k], layout, reader), layout, plan, reader)


def _csv_rows(nos: list[int], lines: list[str], layout: Layout, plan: Plan | None, reader: _Reader) -> None:
    """CSV rows: all at once where they fit the plan, else (and the since-boot first row) one by one."""
    k = 0
    while k < len(lines) and (plan is None or reader.reports == 0):
        _csv_one(nos[k], lines[k], layout, reader)
        k += 1
    if plan is None:
        return
    for a in range(k, len(lines), _BATCH):

        def one(j: int, a: int = a) -> None:
            _csv_one(nos[a + j], lines[a + j], layout, reader)

        _take(_dstat_rows.read_csv(lines[a : a + _BATCH], plan), one, layout, plan, reader)


def _take(got: Rows, one: Callable[[int], None], layout: Layout, plan: Plan, reader: _Reader) -> None:
    """Rows read all at once appended, the lines they refused read one by one (`one(k)`), in
    their order."""
    start = taken = 0  # the line a run of fitting rows starts at, and the rows of `got` before it
    for stop in [*np.flatnonzero(~got.ok).tolist(), len(got.ok)]:
        run = stop - start
        part = Rows(got.ok[start:stop], got.values[taken : taken + run], got.clock[taken : taken + run])
        if run and not reader.taken(layout, plan, part):
            for j in range(start, stop):
                one(j)
        taken += run
        if stop < len(got.ok):
            one(stop)
        start = stop + 1


def _text_chunk(data: bytes, state: _State, reader: _Reader) -> None:
    """A chunk of text (no colours, no CR) under a layout with a plan: runs of lines that are
    rows of the plan's width with a plugin separator in place (never a header line, and after a
    row) read all at once; every other line as _text_line reads it."""
    if not data:
        return
    buf = np.frombuffer(data, np.uint8)
    ends = np.flatnonzero(buf == 10)
    if not data.endswith(b"\n"):
        ends = np.append(ends, len(data))  # the file's last line (no newline: read one by one)
    starts = np.concatenate(([0], ends[:-1] + 1))
    i, n = 0, len(ends)
    fits, plan = np.zeros(n, bool), None
    while i < n:
        if state.plan is not plan:
            plan = state.plan
            fits = _fits(buf, starts, ends, plan) if plan is not None else np.zeros(n, bool)
            fits[-1] &= data.endswith(b"\n")
        if not fits[i] or state.titles or state.layout is None or plan is None or reader.reports == 0:
            state.no += 1
            _text_line(data[starts[i] : ends[i]].decode("utf-8", "replace"), state, reader)
            if reader.reports == 0:
                _flush(state, reader)  # the since-boot row: read before the rows after it
            i += 1
            continue
        _flush(state, reader)
        j = i + int(np.argmin(fits[i:])) if not fits[i:].all() else n
        for a in range(i, j, _BATCH):
            b = min(a + _BATCH, j)
            m = buf[starts[a] : ends[b - 1] + 1].reshape(b - a, plan.width + 1)
            no0 = state.no + 1 + a - i

            def one(k: int, a: int = a, no0: int = no0, layout: Layout = state.layout) -> None:
                _one(no0 + k, data[starts[a + k] : ends[a + k]].decode("utf-8", "replace"), layout, reader)

            _take(_dstat_rows.read(m, plan), one, state.layout, plan, reader)
        state.no += j - i
        state.previous, state.titles = data[starts[j - 1] : ends[j - 1]].decode("utf-8", "replace"), False
        i = j
    _flush(state, reader)


def _fits(buf: np.ndarray, starts: np.ndarray, ends: np.ndarray, plan: Plan) -> np.ndarray:
    """Lines of the plan's width with `|` or `:` where its first two plugins meet (so not a
    title line, which never holds either)."""
    fits = ends - starts == plan.width
    if plan.sep is None:
        return np.zeros(len(ends), bool)
    at = buf[np.minimum(starts + plan.sep, len(buf) - 1)]
    return fits & ((at == ord("|")) | (at == ord(":")))


def _one(no: int, line: str, layout: Layout, reader: _Reader) -> None:
    # dstat and dool end the row after skipped reports with `missed N ticks`: a data row still
    missed = _MISSED.search(line)
    cells = layout.cut(line[: missed.start()] if missed else line)
    if cells is None:
        if reader.ctx.room():
            reader.ctx.warn(no, f"not a dstat row: {line[:60]!r}", kind="unreadable")
        return
    reader.row(no, layout, cells, int(missed.group(1)) if missed else 0)


def _csv_line(line: str, state: _State, reader: _Reader) -> None:
    if state.layout is not None and '"' not in line:  # a data row: read with the others
        state.pending.append(line)
        state.pending_no.append(state.no)
        return
    _flush(state, reader)
    ctx = reader.ctx
    if m := _BANNER.match(line):
        ctx.meta.tool_version = ctx.meta.tool_version or f"{m.group(1)} {m.group(2)}"
        reader.pcp = m.group(1) == "pcp-dstat"
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
            layout = csv_layout(state.groups, cells, kib=reader.pcp)
            reader.sizes = _group_sizes(state.groups, len(cells))
            state.groups = None
            if layout is not None:
                state.use(layout, ctx)
        return
    _csv_cells(state.no, line, cells, state.layout, reader)


def _csv_one(no: int, line: str, layout: Layout, reader: _Reader) -> None:
    try:
        cells = next(csv.reader([line]))
    except csv.Error:
        cells = []
    _csv_cells(no, line, cells, layout, reader)


def _csv_cells(no: int, line: str, cells: list[str], layout: Layout, reader: _Reader) -> None:
    if len(cells) != len(layout.columns) and reader.pcp:
        # pcp-dstat prints one empty cell for a group with nothing to show: every rate in its
        # first row, a swap group without swap devices in every row
        cells = pcp_row(cells, reader.sizes) or cells
    if len(cells) != len(layout.columns):
        if line.strip() and reader.ctx.room():
            reader.ctx.warn(no, f"{len(cells)} fields where the header names {len(layout.columns)}", kind="unreadable")
        return
    reader.row(no, layout, cells)


def _group_sizes(groups: list[str], columns: int) -> list[int]:
    """How many columns each group of a CSV group row spans (a title, then empty cells)."""
    starts = [k for k, g in enumerate(groups) if g] or [0]
    return [b - a for a, b in itertools.pairwise([*starts, columns])] if starts[0] == 0 else []


def _interval(command: str) -> float | None:
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


def _banner_fact(line: str, reader: _Reader) -> bool:
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
        delay = _interval(cells[1]) if len(cells) > 1 else None
        meta.interval = meta.interval or delay
    return True
