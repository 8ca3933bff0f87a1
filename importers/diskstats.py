"""/proc/diskstats taken in a loop (pt-stalk's `-diskstats` file): `TS <epoch> …` marker lines,
each followed by the raw file, turned into the per-device metrics of `iostat -x`.

Variants covered (fixtures in tests/fixtures/diskstats):
- kernel 6.x lines `major minor name` + 17 fields (11 I/O fields, 4 discard fields since 4.18,
  2 flush fields since 5.5), captured here next to `iostat -x -t 1` over the same seconds;
- 2.6-era lines with 11 fields and partitions with 4 (reads, sectors read, writes, sectors
  written), from percona-toolkit's own pt-diskstats test sample;
- any marker importers/_snapshots.py reads (pt-stalk's `TS 1327510177.628000 2012-01-25T10:49:37`
  and `TS <epoch>.<ns> YYYY-MM-DD HH:MM:SS`).

Metrics (entity: the device name as printed), per interval between two snapshots, at the later
one's time, computed as sysstat 12's iostat does (common.c compute_ext_disk_stats, iostat.c
write_ext_stat) with the TS interval in place of /proc/uptime's:
`r/s w/s d/s f/s` = Δcompleted/Δt; `rrqm/s wrqm/s drqm/s` = Δmerged/Δt; `rkB/s wkB/s dkB/s` =
Δsectors/2/Δt (sectors are 512 bytes whatever the device); `%rrqm` = Δmerged/(Δmerged+Δcompleted)
x100; `r_await w_await d_await f_await` = Δms/Δcompleted (ms; 0 with no I/O, as iostat prints);
`rareq-sz wareq-sz dareq-sz` = Δsectors/2/Δcompleted (kB); `aqu-sz` = Δweighted ms/Δt/1000;
`%util` = Δms doing I/O/Δt/10, at most 100. A 4-field partition line gives `r/s rkB/s w/s wkB/s`.
Devices that never did any I/O in the file (all counters 0: loop, ram) are left out, like iostat
without `-p`/`-N` leaves them. A counter going down (reboot, 32-bit wrap) or a device missing on
either side of an interval gives no values for that interval (a gap), with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers._proc import Counters, marked
from benchlens.importers._snapshots import marker_time
from benchlens.importers._tokens import KIND_NUMBER, KIND_TEXT, Tokens, fnv1a, tokenized
from benchlens.importers._types import Block, Context

name = "diskstats"

# the fields after `major minor name`, in /proc/diskstats order (Documentation/admin-guide/iostats.rst)
FIELDS = (
    "rd_ios", "rd_merges", "rd_sectors", "rd_ticks",
    "wr_ios", "wr_merges", "wr_sectors", "wr_ticks",
    "in_flight", "io_ticks", "rq_ticks",
    "dc_ios", "dc_merges", "dc_sectors", "dc_ticks",
    "fl_ios", "fl_ticks",
)  # fmt: skip
PARTITION_FIELDS = ("rd_ios", "rd_sectors", "wr_ios", "wr_sectors")  # 2.6 kernels' partition lines
_LINE = re.compile(r"^\s*\d+\s+\d+\s+(\S+)((?:\s+\S+){4,})\s*$")
_SNIFF = re.compile(r"^\s*\d+\s+\d+\s+[A-Za-z]\S*(?: +\d+){11,20} *$", re.M)
VARIANTS = {
    4: "4-field partition lines (kernel < 2.6.25)",
    11: "11 fields (kernel < 4.18)",
    15: "15 fields: discards (kernel 4.18+)",
    17: "17 fields: discards and flushes (kernel 5.5+)",
}
UNITS = {"%": "%", "await": "ms", "kB/s": "kB/s", "areq-sz": "kB", "aqu-sz": ""}
# (prefix, ios, merges, sectors, ticks) of the request kinds iostat prints
KINDS = (("r", "rd_ios", "rd_merges", "rd_sectors", "rd_ticks"), ("w", "wr_ios", "wr_merges", "wr_sectors", "wr_ticks"))
DISCARD = ("d", "dc_ios", "dc_merges", "dc_sectors", "dc_ticks")


def sniff(head: str) -> float:
    rows = len(_SNIFF.findall(head))
    if not rows:
        return 0.0
    return marked(head)


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = _read(chunks, ctx)
    if len(snaps) < 2:
        ctx.warn(None, f"{len(snaps)} /proc/diskstats snapshot(s): rates need two", kind="format")
        return
    t, dt, usable = snaps.intervals(ctx)
    for device in snaps.entities():
        keys = snaps.keys(device)
        if any(np.nansum(snaps.column(device, k)) for k in keys):  # else never did any I/O: iostat hides it too
            block = _device(snaps, device, keys, dt, usable, ctx)
            if block:  # each interval usable (the rule): the arrays as they are, no copy
                every = bool(usable.all())
                yield Block(device, t[usable], block if every else {m: v[usable] for m, v in block.items()})
        snaps.release(device)


# ---- reading: the token arrays of each chunk (importers/_tokens.py), no per-line Python ------------
# pt-stalk writes `TS <epoch>.<ns> <date> <time>` (date +"TS %s.%N %F %T"); other markers (ISO, `date`)
# are read by importers/_snapshots.py, line by line (one per snapshot).
H_TS = fnv1a(b"TS")
MARKER_MAX = 64  # _snapshots reads markers shorter than this
_PARTITION_COLUMNS = np.array([FIELDS.index(k) for k in PARTITION_FIELDS])


@dataclass
class _Piece:
    """One chunk's /proc/diskstats lines: the section of each, their 17 values (line by field, uint32
    when every one fits: digits only, so whole numbers, the same values in half the memory; else
    float64) and the device of each: `ids` per line, or `cycle` (device -> j) when the chunk lists
    the same P devices in the same order every snapshot, as /proc prints them: device j's lines
    are then every P-th line from j (found without a pass per device)."""

    sections: np.ndarray
    values: np.ndarray
    ids: np.ndarray | None
    cycle: dict[int, int]
    period: int

    def lines_of(self, device: int) -> slice | np.ndarray | None:
        if self.ids is None:
            j = self.cycle.get(device)
            return None if j is None else slice(j, None, self.period)
        at = np.flatnonzero(self.ids == device)
        return at if len(at) else None


@dataclass
class _Rows:
    """What the chunks held: the sections opened by markers, and every /proc/diskstats line as
    (section, device, 17 values with NaN for the fields the line lacks), one piece per chunk."""

    times: list[float] = field(default_factory=list)  # section k's marker time
    lines: list[int] = field(default_factory=list)  # section k's first line (after its marker)
    device_of: dict[int, int] = field(default_factory=dict)  # label hash -> device number
    names: list[str] = field(default_factory=list)  # device number -> name, in order of appearance
    pieces: list[_Piece] = field(default_factory=list)
    with_rows: set[int] = field(default_factory=set)  # sections holding a line
    before_first: bool = False  # lines before the first marker were seen (warned once, when it comes)
    warned_before: bool = False


def _read(chunks: Iterator[bytes], ctx: Context) -> Counters:
    """Every marked snapshot of the file (one giving no line is left out), as _proc.Counters."""
    acc = _Rows()
    for toks, line_no in tokenized(chunks):
        _chunk(acc, toks, line_no, ctx)
    _warn_before_first(acc, ctx)
    return _counters(acc)


def _warn_before_first(acc: _Rows, ctx: Context) -> None:
    if acc.before_first and not acc.warned_before:
        acc.warned_before = True
        ctx.warn(1, "lines before the first `TS` marker have no time; skipped", kind="time")


def _chunk(acc: _Rows, toks: Tokens, line_no: int, ctx: Context) -> None:
    n = toks.n_lines
    if n == 0 or len(toks.hash) == 0:
        return
    cnt, tf, kind = toks.count, toks.tok_first, toks.kind
    last = len(kind) - 1
    first, second, third = (np.minimum(tf[:-1] + j, last) for j in range(3))
    rows = (cnt >= 7) & (kind[first] == KIND_NUMBER) & (kind[second] == KIND_NUMBER) & (kind[third] == KIND_TEXT)
    rows &= (toks.line_numeric == cnt - 1) & ((cnt == 7) | (cnt >= 14))
    short = (toks.line_end - toks.line_start) < MARKER_MAX
    ts, times = _ts_markers(toks, np.flatnonzero(short & (cnt >= 2) & ~rows), first, second)
    other = (cnt > 0) & ~rows & ~ts
    marker = ts.copy()
    bad: list[int] = []
    for i in np.flatnonzero(other):
        t = marker_time(toks.line(int(i)), ctx) if short[i] else None
        if t is None:
            bad.append(int(i))
        else:
            marker[i], times[i] = True, t
    rows[rows] = _counts_only(toks, np.flatnonzero(rows))
    for i in np.flatnonzero((cnt >= 3) & ~rows & ~marker & ~other):  # numbers where a row was expected
        bad.append(int(i))
    section = len(acc.times) - 1 + np.cumsum(marker)
    marked = np.flatnonzero(marker)
    acc.times.extend(times[marked].tolist())
    acc.lines.extend((marked + (line_no + 1)).tolist())
    acc.before_first |= bool(((section < 0) & (cnt > 0)).any())
    if acc.times:  # the first marker has come: what was before it is known
        _warn_before_first(acc, ctx)
    _warn_lines(acc, toks, line_no, sorted(bad), section, ctx)
    _keep_rows(acc, toks, np.flatnonzero(rows & (section >= 0)), section, ctx)


def _ts_markers(
    toks: Tokens, lines: np.ndarray, first: np.ndarray, second: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(is a `TS <epoch>` marker, its time else NaN) of each line of the chunk, looking only at
    `lines` (short lines that are not rows: one in 41 of a 40-device file)."""
    one, two = first[lines], second[lines]
    val = toks.val[two]
    ok = (toks.hash[one] == H_TS) & (toks.kind[two] == KIND_NUMBER) & (val >= 1e8) & (val < 1e11)
    ok[ok] = _ts_layout(toks, one[ok], two[ok])
    at = lines[ok]
    ts = np.zeros(toks.n_lines, bool)
    ts[at] = True
    times = np.full(toks.n_lines, np.nan)
    times[at] = val[ok]
    return ts, times


def _ts_layout(toks: Tokens, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """`TS` then one space then the epoch as _snapshots reads it (digits, a fraction after a point)."""
    data = np.frombuffer(toks.data, np.uint8)
    if not len(data):
        return np.zeros(len(first), bool)
    top = len(data) - 1
    after = data[np.minimum(toks.tok_start[first] + 2, top)]
    lead = data[np.minimum(toks.tok_start[second], top)]
    tail = data[np.maximum(toks.tok_end[second] - 1, 0)]
    ok = (after == 32) & (toks.tok_start[second] == toks.tok_start[first] + 3)
    return ok & (lead >= 48) & (lead <= 57) & (tail >= 48) & (tail <= 57)


def _counts_only(toks: Tokens, rows: np.ndarray) -> np.ndarray:
    """Rows whose major, minor and fields are all plain counters: the scanner read them as numbers,
    so one without a sign, a comma or a decimal point is digits only (the name may hold a `-`)."""
    if not len(rows):
        return np.zeros(0, bool)
    return toks.plain_rows(rows, 2)


def _warn_lines(acc: _Rows, toks: Tokens, line_no: int, bad: list[int], section: np.ndarray, ctx: Context) -> None:
    for j, i in enumerate(bad):
        if section[i] < 0:
            continue  # before the first marker: one warning for all of them
        if not ctx.room(len(bad) - j):
            break
        text = toks.line(i).strip()[:60]
        ctx.warn(line_no + i, f"not a /proc/diskstats line: {text!r}; skipped", kind="unreadable")


def _keep_rows(acc: _Rows, toks: Tokens, rows: np.ndarray, section: np.ndarray, ctx: Context) -> None:
    if not len(rows):
        return
    label_tok = toks.tok_first[rows] + 2
    labels = toks.hash[label_tok]
    period = _period(labels)
    ids: np.ndarray | None = None
    if period:  # new devices in the order they appear: the cycle's
        for j in range(period):
            _device_number(acc, toks, int(labels[j]), int(label_tok[j]))
        cycle = {acc.device_of[int(h)]: j for j, h in enumerate(labels[:period])}
    else:
        distinct, where = np.unique(labels, return_index=True)
        for j in np.argsort(where):
            _device_number(acc, toks, int(distinct[j]), int(label_tok[where[j]]))
        known = np.array(sorted(acc.device_of), np.uint64)
        ids = np.array([acc.device_of[int(h)] for h in known], np.int64)[np.searchsorted(known, labels)]
        cycle = {}
    sections = section[rows].astype(np.int64)
    runs = np.concatenate(([True], sections[1:] != sections[:-1]))  # the sections, each once
    acc.with_rows.update(sections[runs].tolist())
    acc.pieces.append(_Piece(sections, _compact(_values(toks, rows, ctx)), ids, cycle, period))


def _device_number(acc: _Rows, toks: Tokens, label: int, tok: int) -> None:
    if label not in acc.device_of:
        acc.device_of[label] = len(acc.names)
        acc.names.append(toks.text(tok))


def _period(labels: np.ndarray) -> int:
    """P when the lines cycle through the same P distinct labels in the same order (a chunk may
    start and end mid-snapshot), else 0."""
    repeat = np.flatnonzero(labels[1:] == labels[0]) + 1
    period = int(repeat[0]) if len(repeat) else len(labels)
    if np.array_equal(labels[period:], labels[:-period]) and len(np.unique(labels[:period])) == period:
        return period
    return 0


def _compact(v: np.ndarray) -> np.ndarray:
    """A chunk's counters as uint32 when they all fit (they are digits only, so whole numbers: the
    same values, in half the memory), else float64 (a counter past 2^32, a field the line lacks)."""
    if v.size and v.min() >= 0 and v.max() < 2.0**32:  # NaN fails both
        return v.astype(np.uint32)
    return v


def _values(toks: Tokens, rows: np.ndarray, ctx: Context) -> np.ndarray:
    """The 17 fields of each line, NaN for those its kernel does not print."""
    nf = toks.count[rows] - 3
    if (nf >= len(FIELDS)).all():  # kernel 5.5+: every line has them all
        ctx.note_variant(VARIANTS.get(int(nf[0]), f"{int(nf[0])} fields"))
        return toks.gather(rows, 3, len(FIELDS))
    values = np.full((len(rows), len(FIELDS)), np.nan)
    widths, where_first = np.unique(nf, return_index=True)
    for width in widths[np.argsort(where_first)]:  # noted in the order the file shows them
        ctx.note_variant(VARIANTS.get(int(width), f"{int(width)} fields"))
        sel = nf == width
        got = toks.gather(rows[sel], 3, min(int(width), len(FIELDS)))
        if width == len(PARTITION_FIELDS):
            values[np.ix_(np.flatnonzero(sel), _PARTITION_COLUMNS)] = got
        else:
            values[sel, : got.shape[1]] = got
    return values


class _Tables(Counters):
    """_proc.Counters over the pieces (4 or 8 bytes a counter: _compact): one (field, snapshot)
    float64 table per device, made when its keys are first asked for and dropped by release(), so
    one device's table is held beside the pieces. Columns are rows of the table (read, never written)."""

    def __init__(self, acc: _Rows, used: np.ndarray) -> None:
        super().__init__()
        self.times, self.lines = [acc.times[k] for k in used], [acc.lines[k] for k in used]
        self.acc, self.used = acc, used
        self.entity = ""
        self.table: dict[str, np.ndarray] = {}

    def entities(self) -> list[str]:
        return list(self.acc.names)  # each was read on some line: each has fields

    def stored(self) -> Iterable[tuple[str, str]]:
        return ((e, k) for e in self.entities() for k in self.keys(e))

    def _of(self, entity: str) -> dict[str, np.ndarray]:
        if entity != self.entity:
            self.entity, self.table = entity, {}
            if entity in self.acc.names:
                self.table = _table(self.acc, self.acc.names.index(entity), self.used)
        return self.table

    def column(self, entity: str, key: str) -> np.ndarray:
        got = self._of(entity).get(key)
        return got if got is not None else np.full(len(self), np.nan)

    def keys(self, entity: str) -> list[str]:
        return list(self._of(entity))

    def release(self, entity: str) -> None:
        if entity == self.entity:
            self.entity, self.table = "", {}


def _table(acc: _Rows, device: int, used: np.ndarray) -> dict[str, np.ndarray]:
    """One device's counters by field (those it has), a value per snapshot (NaN where it has none)."""
    sections, parts = [], []
    for piece in acc.pieces:
        at = piece.lines_of(device)
        if at is not None:
            sections.append(piece.sections[at])
            parts.append(piece.values[at])
    snaps = np.concatenate(sections)
    # each piece's lines cast into the fields' rows in one copy (not joined, then transposed and cast:
    # 0.08 s for 40 devices' 2M lines against 0.11-0.20 s)
    values = np.empty((len(FIELDS), len(snaps)))
    k = 0
    for part in parts:
        values[:, k : k + len(part)] = part.T
        k += len(part)
    if np.array_equal(snaps, used):  # in every snapshot once, as /proc prints it
        table = values
    else:
        snap = np.searchsorted(used, snaps)
        table = np.full((len(FIELDS), len(used)), np.nan)
        for f in range(len(FIELDS)):  # a device printed twice in a snapshot: its last value of each field
            has = ~np.isnan(values[f])
            table[f, snap[has]] = values[f, has]
    return {FIELDS[j]: table[j] for j in np.flatnonzero(~np.isnan(table).all(axis=1))}


def _counters(acc: _Rows) -> Counters:
    """The snapshots (sections holding a line), each device's table made when it is asked for."""
    if not acc.with_rows:
        return Counters()
    return _Tables(acc, np.array(sorted(acc.with_rows), np.int64))


def _device(
    snaps: Counters, device: str, stored: list[str], dt: np.ndarray, usable: np.ndarray, ctx: Context
) -> dict[str, np.ndarray]:
    keys = [k for k in FIELDS if k != "in_flight" and k in stored]
    d, reset = snaps.deltas(device, keys)
    snaps.warn_resets(ctx, device, reset & usable, "device")
    out: dict[str, np.ndarray] = {}
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for kind in (*KINDS, DISCARD):
            _kind(out, d, kind, dt)
        if "fl_ios" in d:
            out["f/s"] = d["fl_ios"] / dt
            out["f_await"] = _per(d["fl_ticks"], d["fl_ios"])
        if "rq_ticks" in d:
            out["aqu-sz"] = d["rq_ticks"] / dt / 1000.0
        if "io_ticks" in d:
            out["%util"] = np.minimum(d["io_ticks"] / dt / 10.0, 100.0)
    gaps = bool(reset.any())
    for m, v in out.items():
        if gaps:
            v[reset] = np.nan
        ctx.units.setdefault(m, unit(m))
    return out


def _kind(out: dict[str, np.ndarray], d: dict[str, np.ndarray], kind: tuple[str, ...], dt: np.ndarray) -> None:
    p, ios, merges, sectors, ticks = kind
    if ios not in d or sectors not in d:
        return
    kb = d[sectors] / 2.0
    out[f"{p}/s"] = d[ios] / dt
    out[f"{p}kB/s"] = kb / dt
    if merges in d and ticks in d:
        out[f"{p}rqm/s"] = d[merges] / dt
        out[f"%{p}rqm"] = _per(d[merges], d[merges] + d[ios]) * 100.0
        out[f"{p}_await"] = _per(d[ticks], d[ios])
        out[f"{p}areq-sz"] = _per(kb, d[ios])


def _per(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num/den, 0 where den is 0 (iostat prints 0.00 for an interval without I/O)."""
    out = np.where(np.isnan(den), np.nan, 0.0)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return np.divide(num, den, out=out, where=den > 0)  # elsewhere `out` stays as it is


def unit(metric: str) -> str:
    for part, u in UNITS.items():
        if part in metric:
            return u
    return "1/s"
