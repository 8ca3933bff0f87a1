"""dstat: the terminal text (`dstat [-t] [-T] -cdngy ... interval [count]`) and the `--output FILE`
CSV, as dstat 0.7.x (Debian's 0.7.4 prints "Dstat 0.8.0"), pcp-dstat (PCP's rewrite, Debian's
`dstat` since bookworm; 6.0.3 captured) and dool (the maintained fork; 1.0 as in the DBPA corpus,
1.3.8 captured) write them.

Variants covered (fixtures in tests/fixtures/dstat, MANIFEST there):
- text: two header lines, a group line (`----system---- --total-cpu-usage-- -dsk/total-`) over a
  column line (`     time     |usr sys idl wai stl| read  writ`); each group's values sit under
  its title, so rows are cut at the title's columns (`|` between plugins, `:` between the names of
  one plugin such as `-D vda,total`, in every row). Values carry dstat's unit suffixes (`2113k`,
  `13M`, `312B`, `20.7G`; a `-` or a blank is no value); headers repeated every screen and ANSI
  colours (a terminal capture, `script(1)`) are read too, and dool's box characters (`┄ ┬ │ ┊`
  for `- | :`). dstat and pcp-dstat print the same under any locale (C, de_DE, fr_FR captured);
- CSV: the banner rows (`"Dstat 0.8.0 CSV output"`, `"dool 1.3.8 CSV output"`, `"pcp-dstat 6.0.3
  CSV Output"`, Author, Host, Cmdline, Date, an empty row in 0.7.2), a group row and a column row
  (`"cpu0 usage:usr"` for plugins with several names; pcp-dstat `total usage:usr`,
  `dsk/total:read`), then raw numbers; a second banner (dstat appends to an existing file)
  starts a new layout. pcp-dstat prints one empty cell for a group with nothing to show (every
  rate in its first row, a swap group without a swap device in every row): aligned to the header.
- the row after reports dstat/dool skipped (the process starved or stopped) ends in `missed N
  ticks`: a data row, its values (counters of N intervals over one: warned) and its time kept; an
  untimed text's report number jumps by N.

Times: the `time` column (`-t`, `dd-mm HH:MM:SS` local time; dool `Nov-27 00:26:18`) or an epoch
column (`-T`, UTC epochs; or a plugin's clock, DBPA's `mysql5 time` / `Time`: preferred to `time`)
make the file WALL-timed. The text prints no year: the CSV's `Date:` row gives it, else the latest
year in which the first row's day is not in the future is taken (a `time` warning says so); rows
roll into the next year after December. An epoch CSV's Date row (local time at launch) against its
first epoch gives the UTC offset (zone evidence for the folder: `CST` alone is ambiguous). Without
a time column rows are INDEX-timed (report k at launch + k x interval; the interval from the
Cmdline's own words: its first positional number, `dool --noupdate 5` -> 5, never the Date row).
The first row of dstat and dool is the average since boot: dropped with a warning, its time kept
as the launch. pcp-dstat has no such row (PCP needs two samples for a rate): its first row is a
sample (its gauges: memory, load, procs) or, with rates only, just the launch.

Metrics: `<group>.<column>`, the group as dstat titles it with the device, interface or CPU moved
to the entity: `cpu.usr` (entity `total`, `0`, `1` ...), `dsk.read`/`dsk.writ` (`total`, `vda`),
`net.recv`/`net.send` (`total`, `eth0`), `io.read`, `memory.used`, `swap.free` (pcp-dstat's swap
group `total`), `paging.in`, `system.int`/`system.csw`, `load.1m`, `procs.run`; other plugins by
their title (`tcp.act`, `mysql5_cmds.sel`, `innodb_pool.wri`, `MySQL_InnoDB_full.qps`: what each
database plugin's column is, rate, gauge or setting, and its unit in importers/_dstat_plugins.py;
`most_expensive...` values that are not numbers are skipped with a warning). Settings columns
(dool's `mysql5 settings`: Innodb_buffer_pool_size, max_connections ...) are no series: settings
of scope `variables` in the source's meta (a change within the file warned). Units: cpu %,
dsk/net B/s, memory/swap B, io/paging/system/int 1/s, others as printed. Suffixes scale by 1024
for dstat's byte plugins (dsk, net, memory, swap, paging: dstat's scale 1024) and by 1000 for the
others (io, system, interrupts, sockets ...); pcp-dstat's CSV prints disks, memory and swap in
KiB (PCP's units): read as bytes; `--bits` output (`b` suffix) is not read.

Speed: the rows of a layout are read all at once (importers/_dstat_rows.py: a text row is a line
of fixed windows, a CSV row plain numbers), and only the rows that this refuses, and the header
lines, one by one (importers/_dstat_reader.py); both give the same values and warnings
(tests/importers/test_dstat_rows.py). bench/dstat_speed.py measures it.
"""

from __future__ import annotations

import csv
import itertools
import re
from collections.abc import Callable, Iterator

import numpy as np

from benchlens.importers import _dstat_rows
from benchlens.importers._dstat_layout import Layout, csv_layout, pcp_row, text_layout, title_line
from benchlens.importers._dstat_reader import Reader, banner_fact
from benchlens.importers._dstat_rows import Plan, Rows
from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context

name = "dstat"

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
# dool draws its header and separators with box characters (its ASCII ones with --ascii): ┄ for
# the title's dashes, ┬ ┼ between titles, │ between plugins, ┊ between the names of one plugin
_BOX = str.maketrans("\u2504\u252c\u253c\u2502\u250a", "-  |:")
_BOX_BYTES = b"\xe2\x94"  # UTF-8 of U+2500..U+253F
_BANNER = re.compile(r'^"(Dstat|Dool|dool|pcp-dstat) ([\w.]+) CSV [Oo]utput"')
_MISSED = re.compile(r"\s+missed (\d+) ticks\s*$")


def sniff(head: str) -> float:
    """dstat's CSV banner, or a text header: a group line of dash-padded titles over a column line."""
    lines = [_plain(line).rstrip("\r") for line in head.splitlines()[:40]]
    if any(_BANNER.match(line) for line in lines[:3]):
        return 0.95
    for a, b in itertools.pairwise(lines):
        if text_layout(a, b) is not None:
            return 0.9
    return 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    reader = Reader(ctx)
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


def _text_line(line: str, state: _State, reader: Reader) -> None:
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


def _flush(state: _State, reader: Reader) -> None:
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


def _batch(nos: list[int], lines: list[str], layout: Layout, plan: Plan, reader: Reader) -> None:
    m, fits = _dstat_rows.matrix(lines, plan)
    got = _dstat_rows.read(m, plan)
    got = Rows(got.ok & fits, got.values[fits[got.ok]], got.clock[fits[got.ok]])
    _take(got, lambda k: _one(nos[k], lines[k], layout, reader), layout, plan, reader)


def _csv_rows(nos: list[int], lines: list[str], layout: Layout, plan: Plan | None, reader: Reader) -> None:
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


def _take(got: Rows, one: Callable[[int], None], layout: Layout, plan: Plan, reader: Reader) -> None:
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


def _text_chunk(data: bytes, state: _State, reader: Reader) -> None:
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


def _one(no: int, line: str, layout: Layout, reader: Reader) -> None:
    # dstat and dool end the row after skipped reports with `missed N ticks`: a data row still
    missed = _MISSED.search(line)
    cells = layout.cut(line[: missed.start()] if missed else line)
    if cells is None:
        if reader.ctx.room():
            reader.ctx.warn(no, f"not a dstat row: {line[:60]!r}", kind="unreadable")
        return
    reader.row(no, layout, cells, int(missed.group(1)) if missed else 0)


def _csv_line(line: str, state: _State, reader: Reader) -> None:
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
    if banner_fact(line, reader):
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


def _csv_one(no: int, line: str, layout: Layout, reader: Reader) -> None:
    try:
        cells = next(csv.reader([line]))
    except csv.Error:
        cells = []
    _csv_cells(no, line, cells, layout, reader)


def _csv_cells(no: int, line: str, cells: list[str], layout: Layout, reader: Reader) -> None:
    if len(cells) != len(layout.columns) and reader.pcp:
        if len(cells) == len(layout.columns) + 1 and not cells[-1]:
            # a comma after the last value: pcp-dstat 5.0.3 as PerfKitBenchmarker reads it
            # (perfkitbenchmarker/linux_packages/dstat.py, "Remove the trailing comma")
            cells = cells[:-1]
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
