"""dstat text rows read all at once (importers/dstat.py keeps the one-row-at-a-time reading for the
rows this refuses).

dstat prints every column of a plugin in one fixed width, one space apart, and every row of a
header's layout in the same places: `23-11 17:37:36| 59   8  30   1   1|2142k   13M|`. So the rows
of one layout are a byte matrix (one row a line, padded with spaces), each value a fixed window of
it, and the numbers, their `k`/`M`/`G` suffixes and the `dd-mm HH:MM:SS` times are read with numpy
over all rows at once. A row is taken here only when splitting it as dstat.py does would give the
same words: ASCII, spaces between the windows of a plugin, `|` or `:` after every group but the
last, nothing past the last window, one word per window of the shape dstat.py reads
(`-?\\d+(\\.\\d+)?` and a suffix, or `-` or blanks for no value, at most 15 digits so that the
digits add up exactly); its values are then the same floats (`int / 10**k` is float()'s correctly
rounded value). CSV rows likewise: plain numbers, a first `time` (dstat's or dool's) or an epoch
column anywhere. Every other row goes back one by one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers._dstat_layout import Layout

SPACE, NEWLINE = 32, 10
_POWER = np.zeros(256, np.int8)
_SUFFIX = np.zeros(256, bool)
for _p, _ch in enumerate("BkMGTP"):
    _POWER[ord(_ch)] = _p
    _SUFFIX[ord(_ch)] = True
_TIME_DIGITS = np.array([0, 1, 3, 4, 6, 7, 9, 10, 12, 13])
_TIME_MARKS = ((2, ord("-")), (5, SPACE), (8, ord(":")), (11, ord(":")))
MAX_DIGITS = 15  # digits a float64 adds up exactly (< 2**53)


@dataclass(frozen=True)
class Plan:
    """Where each value of a layout's rows sits: window f is line[idx[f, 0] : ...] (padded to
    the widest window with the all-space column `width`)."""

    width: int  # the end of the last title: every row is read as `width` characters
    idx: np.ndarray  # (fields, widest) character positions; `width` pads
    gaps: np.ndarray  # positions inside a plugin between two values: spaces
    seps: np.ndarray  # positions after every group but the last: `|` or `:`
    columns: np.ndarray  # layout column of each field
    base: np.ndarray  # per field: what its suffixes count in
    time: int | None  # first character of the `dd-mm HH:MM:SS` window
    epoch: int | None  # field of the epoch column
    sep: int | None  # where the first two plugins meet (`|` or `:` in every row), None for one plugin
    row: re.Pattern[str] | None = field(default=None)  # CSV: a row read here, whole


def plan(layout: Layout, group_line: str) -> Plan | None:
    """The fixed windows of a text layout (from its group line's titles), None when its plugins do
    not split into equal windows (the rows are then read one by one)."""
    if not layout.spans or not group_line.strip() or any(c.setting for c in layout.columns):
        return None  # settings columns are read one by one (their line numbers are kept)
    width = len(group_line.rstrip())
    windows: list[tuple[int, int]] = []
    gaps: list[int] = []
    seps = [end for _, end, _ in layout.spans if end is not None]
    time = None
    for start, end, n in layout.spans:
        span = (end if end is not None else width) - start
        if n == 1 and len(windows) == layout.time:
            if span != 14:
                return None
            time = start
        w, rest = divmod(span - (n - 1), n)
        if rest or w < 1 or (w > MAX_DIGITS and len(windows) != layout.time):
            return None
        windows += [(start + k * (w + 1), w) for k in range(n)]
        gaps += [start + k * (w + 1) - 1 for k in range(1, n)]
    fields = [f for f in range(len(windows)) if f != layout.time]
    if not fields:
        return None
    idx = np.full((len(fields), max(windows[f][1] for f in fields)), width, np.int64)
    for k, f in enumerate(fields):
        start, w = windows[f]
        idx[k, :w] = np.arange(start, start + w)
    base = np.array([float(layout.columns[f].base) for f in fields])
    epoch = fields.index(layout.epoch) if layout.epoch is not None else None
    sep = layout.spans[0][1] if len(layout.spans) > 1 else None
    gap_at, sep_at = np.array(gaps, np.int64), np.array(seps, np.int64)
    return Plan(width, idx, gap_at, sep_at, np.array(fields), base, time, epoch, sep)


@dataclass(frozen=True)
class Rows:
    """What a batch of lines gave: ok[i] when line i was read here; for those rows (in order) the
    values by field (NaN for `-`) and the time window's numbers (day, month, hh, mm, ss)."""

    ok: np.ndarray
    values: np.ndarray
    clock: np.ndarray  # (rows, 5) int64, empty without a time column


def csv_plan(layout: Layout) -> Plan | None:
    """The CSV rows of a layout read all at once: the `dd-mm HH:MM:SS` time first (or dool's
    `Nov-27 00:26:18`) or no time, an epoch column anywhere
    (`\\d{9,11}(\\.\\d+)?`), and plain numbers (`-?\\d+(\\.\\d+)?`, as dstat.py reads them;
    no `-`, no quotes, no spaces)."""
    if layout.spans or layout.time not in (None, 0):
        return None
    if any(c.setting for c in layout.columns):
        return None  # settings columns are read one by one (their line numbers are kept)
    fields = [c for c in range(len(layout.columns)) if c != layout.time]
    if not fields:
        return None
    number, epoch = r"-?\d+(?:\.\d+)?", r"\d{9,11}(?:\.\d+)?"
    head = r"(?:\d\d|[A-Z][a-z][a-z])-\d\d \d\d:\d\d:\d\d," if layout.time == 0 else ""
    row = re.compile(head + ",".join(epoch if c == layout.epoch else number for c in fields))
    empty = np.zeros(0, np.int64)
    time = 0 if layout.time == 0 else None
    at = fields.index(layout.epoch) if layout.epoch is not None else None
    return Plan(0, empty.reshape(0, 0), empty, empty, np.array(fields), np.ones(len(fields)), time, at, None, row)


# dool's `%b` in the C locale (it never calls setlocale)
MONTHS = {m: k + 1 for k, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}  # noqa: SIM905


def read_csv(lines: list[str], p: Plan) -> Rows:
    """The CSV rows of `lines` that fit plan `p` (its `row` pattern), read all at once."""
    assert p.row is not None
    ok = np.fromiter((p.row.fullmatch(line) is not None for line in lines), bool, len(lines))
    if p.time is not None:  # a month name dool's strftime never prints (another locale's): one by one
        for i in np.flatnonzero(ok).tolist():
            ok[i] = lines[i][2] == "-" or lines[i][:3] in MONTHS
    good = [line for line, fits in zip(lines, ok, strict=True) if fits]
    if p.time is not None:  # `Nov-27 00:26:18` (dool) as `27-11 00:26:18` (dstat)
        good = [line if line[2] == "-" else f"{line[4:6]}-{MONTHS[line[:3]]:02d}{line[6:]}" for line in good]
    skip = 15 if p.time is not None else 0  # `dd-mm HH:MM:SS,`
    values = np.zeros((0, len(p.columns)))
    if good:
        values = np.loadtxt([line[skip:] for line in good], delimiter=",", ndmin=2, comments=None)
    values[~np.isfinite(values)] = np.nan  # dstat.py keeps no infinite value
    clock = np.empty((len(good), 5), np.int64)
    if p.time is not None and good:
        digits = np.frombuffer("".join(line[:14] for line in good).encode("ascii"), np.uint8).reshape(-1, 14)
        clock = _clock(digits.astype(np.int64) - 48)
    return Rows(ok, values, clock)


def _clock(win: np.ndarray) -> np.ndarray:
    """(day, month, hh, mm, ss) of `dd-mm HH:MM:SS` windows, as digit values (char - 48)."""
    digits = win[:, _TIME_DIGITS]
    return digits[:, 0::2] * 10 + digits[:, 1::2]


def matrix(lines: list[str], p: Plan) -> tuple[np.ndarray, np.ndarray]:
    """Lines as a (rows, width + 1) byte matrix padded with spaces, and which rows can be read
    from it (ASCII, nothing past the width)."""
    n = len(lines)
    text = " ".join(line.ljust(p.width)[: p.width] for line in lines) + " "
    if not text.isascii():
        return np.full((n, p.width + 1), SPACE, np.uint8), np.zeros(n, bool)
    ok = np.ones(n, bool)
    for i in np.flatnonzero(np.fromiter(map(len, lines), np.int64, n) > p.width):
        ok[i] = not lines[i][p.width :].strip()  # words past the last window
    return np.frombuffer(text.encode("ascii"), np.uint8).reshape(n, p.width + 1), ok


def read(m: np.ndarray, p: Plan) -> Rows:
    """The rows of byte matrix m (rows, width + 1: a line each, then a space or a newline) that
    fit plan `p`, read all at once."""
    ok: np.ndarray = np.asarray((m < 128).all(axis=1))
    if len(p.gaps):
        ok &= (m[:, p.gaps] == SPACE).all(axis=1)
    if len(p.seps):
        at = m[:, p.seps]
        ok &= ((at == ord("|")) | (at == ord(":"))).all(axis=1)
    clock = np.empty((len(m), 5), np.int64)
    if p.time is not None:
        win = m[:, p.time : p.time + 14].astype(np.int64) - 48
        digits = win[:, _TIME_DIGITS]
        ok &= ((digits >= 0) & (digits <= 9)).all(axis=1)
        for pos, ch in _TIME_MARKS:
            ok &= m[:, p.time + pos] == ch
        clock = _clock(win)
    by_place = np.ascontiguousarray(m.T)  # (characters, rows): each place's column contiguous
    values, good, power = numbers(by_place[p.idx.T])  # (fields, rows)
    ok &= good.all(axis=0)
    if p.epoch is not None:
        ok &= epoch_shaped(by_place[p.idx[p.epoch]])
    values = (values * p.base[:, None] ** power).T
    return Rows(ok, values[ok], clock[ok])


# What each character is to a value's word: 0 blank, 1 digit, 2 dot, 3 minus, 4 suffix, 5 other
_CLASS = np.full(256, 5, np.uint8)
_CLASS[[SPACE, NEWLINE]] = 0  # a newline pads the last window of a row
_CLASS[48:58] = 1
_CLASS[[46, 45]] = 2, 3
_CLASS[_SUFFIX] = 4
# The word `-?\d+(\.\d+)?[BkMGTP]?` (or `-` alone) between blanks, as a machine reading one
# character at a time: _STEP[state * 6 + class] is the next state.
START, MINUS, INT, DOT, FRAC, SUFFIX, AFTER, AFTER_DASH, WRONG = range(9)
_STEP = np.full(9 * 6, WRONG, np.uint8)
for _state, _moves in {
    START: {0: START, 1: INT, 3: MINUS},
    MINUS: {0: AFTER_DASH, 1: INT},
    INT: {0: AFTER, 1: INT, 2: DOT, 4: SUFFIX},
    DOT: {1: FRAC},
    FRAC: {0: AFTER, 1: FRAC, 4: SUFFIX},
    SUFFIX: {0: AFTER},
    AFTER: {0: AFTER},
    AFTER_DASH: {0: AFTER_DASH},
}.items():
    for _cls, _next in _moves.items():
        _STEP[_state * 6 + _cls] = _next
_NUMBER = np.zeros(9, bool)
_NUMBER[[INT, FRAC, SUFFIX, AFTER]] = True
_DASH = np.zeros(9, bool)
_DASH[[MINUS, AFTER_DASH, START]] = True  # `-`, or a window left blank (pcp-dstat): no value


def numbers(c: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Windows c (width, ...) of characters, position first -> (value, ok, suffix power): ok where
    the window holds one word `-?\\d+(\\.\\d+)?[BkMGTP]?` (at most 15 characters: its digits add up
    exactly), or `-` or nothing (value NaN)."""
    shape = c.shape[1:]
    state = np.zeros(shape, np.uint8)
    whole = np.zeros(shape)
    frac, power = np.zeros(shape, np.int8), np.zeros(shape, np.int8)
    six = np.uint8(6)
    for ch in c:
        cls = _CLASS[ch]
        state = _STEP[state * six + cls]
        digit = cls == 1
        whole = np.where(digit, whole * 10.0 + (ch - np.uint8(48)), whole)
        frac += state == FRAC
        power += _POWER[ch]
    negative = (c == 45).any(axis=0)
    dash = _DASH[state]
    value = whole / 10.0**frac
    value = np.where(negative, -value, value)
    value[dash] = np.nan
    return value, _NUMBER[state] | dash, power


def epoch_shaped(c: np.ndarray) -> np.ndarray:
    """Epoch windows (width, rows) that read as dstat.py's `\\d{9,11}(\\.\\d+)?`: no sign, no suffix."""
    digit = (c >= 48) & (c <= 57)
    whole = (digit & (np.cumsum(c == 46, axis=0) == 0)).sum(axis=0)
    return ~((c == 45) | _SUFFIX[c]).any(axis=0) & (whole >= 9) & (whole <= 11)
