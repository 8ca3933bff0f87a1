"""What the /proc collectors of pt-stalk share (diskstats, procstat, meminfo, procvmstat): a loop
of `TS <epoch>.<ns> <date> <time>` marker lines (pt-stalk: `date +"TS %s.%N %F %T"`), each
followed by the raw /proc file. Markers are read by importers/_snapshots.py (any marker it
knows); the epoch is UTC.

`timed_snapshots` yields (t, first line, lines) of each marked snapshot, warning once about lines
before the first marker; `Counters` holds one number per (entity, key) per snapshot and gives
the deltas between consecutive snapshots with resets (a counter that went down, an entity that
came or went) as NaN, never a negative rate.
"""

from __future__ import annotations

import math
import re
from array import array
from collections.abc import Callable, Iterable, Iterator

import numpy as np

from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Block, Context


def timed_snapshots(chunks: Iterator[bytes], ctx: Context) -> Iterator[tuple[float, int, list[str]]]:
    """The snapshots that follow a marker; lines before the first marker are skipped with a warning."""
    for s in snapshots(chunks, ctx):
        if s.t is None:
            if any(line.strip() for line in s.lines):
                ctx.warn(s.first_line, "lines before the first `TS` marker have no time; skipped", kind="time")
            continue
        yield s.t, s.first_line, s.lines


_TS = re.compile(r"^TS \d{9,11}(?:\.\d+)?\b", re.M)

# One snapshot's lines (and the number of its first line) -> {(entity, key): value}
Snapshot = Callable[[list[str], int, Context], dict[tuple[str, str], float]]


def marked(head: str) -> float:
    """The confidence of a head whose /proc lines matched: high when pt-stalk's `TS` markers are
    there, lower for a bare copy of the file."""
    return 0.95 if _TS.search(head) else 0.6


def collect(chunks: Iterator[bytes], ctx: Context, snapshot: Snapshot) -> Counters:
    """Every marked snapshot of the file read by `snapshot` (one giving nothing is left out)."""
    snaps = Counters()
    for when, first, lines in timed_snapshots(chunks, ctx):
        values = snapshot(lines, first, ctx)
        if values:
            snaps.add(when, first, values)
    return snaps


def key_values(
    lines: list[str], first: int, ctx: Context, pattern: re.Pattern[str], what: str
) -> Iterator[tuple[re.Match[str], float]]:
    """The `key value` lines of one snapshot (key in group 1, a counter in group 2) with the value;
    a line that is neither blank nor such a line is warned about and skipped."""
    for i, line in enumerate(lines):
        m = pattern.match(line)  # the patterns start with a key: a blank line never matches
        if m is not None:
            text = m.group(2)
            if text.isdigit() and text.isascii():  # count(), inline: this runs once a line
                yield m, float(text)
                continue
        elif not line.strip():
            continue
        if ctx.room():
            ctx.warn(first + i, f"not a {what} line: {line.strip()[:60]!r}; skipped", kind="unreadable")


def count(text: str) -> float | None:
    """A /proc counter: decimal digits only (no sign, no fraction, no exponent), else None."""
    if not text.isascii() or not text.isdigit():
        return None
    return float(text)


class Counters:
    """Snapshots of {(entity, key): value}, kept as one column per (entity, key) (NaN where a
    snapshot lacks it: memory is 8 bytes a value), then their deltas per interval."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.lines: list[int] = []
        self.columns: dict[tuple[str, str], array[float]] = {}

    def add(self, t: float, line: int, values: dict[tuple[str, str], float]) -> None:
        n = len(self.times)
        for key, v in values.items():
            column = self.columns.get(key)
            if column is None:
                column = self.columns[key] = array("d", [math.nan]) * n
            column.append(v)
        for column in self.columns.values():
            if len(column) == n:  # not in this snapshot
                column.append(math.nan)
        self.times.append(t)
        self.lines.append(line)

    def __len__(self) -> int:
        return len(self.times)

    def stored(self) -> Iterable[tuple[str, str]]:
        """The (entity, key) pairs held, in the order they came."""
        return self.columns

    def entities(self) -> list[str]:
        return list(dict.fromkeys(e for e, _ in self.stored()))

    def keys(self, entity: str) -> list[str]:
        return [k for e, k in self.stored() if e == entity]

    def release(self, entity: str) -> None:
        """Forget an entity's counters once its series are made (memory)."""
        for key in self.keys(entity):
            self.columns.pop((entity, key), None)

    def column(self, entity: str, key: str) -> np.ndarray:
        column = self.columns.get((entity, key))
        if column is None:
            return np.full(len(self), np.nan)
        return np.frombuffer(column, np.float64).copy()

    def intervals(self, ctx: Context) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(t of the later snapshot, dt, usable) of every interval; `usable` is False where the
        snapshot is not later than the one before (warned once)."""
        t = np.array(self.times, np.float64)
        dt = np.diff(t)
        usable = dt > 0
        if (~usable).any():
            ctx.warn(
                None,
                f"{int((~usable).sum())} snapshot(s) not later than the one before; no values for them",
                kind="time",
            )
        return t[1:], np.where(usable, dt, 1.0), usable

    def deltas(self, entity: str, keys: list[str]) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Δ of each key over each interval, and `reset`: where any of these keys went down or is
        missing on either side (the entity came or went, a line was cut)."""
        out: dict[str, np.ndarray] = {}
        reset = np.zeros(max(len(self) - 1, 0), bool)
        for key in keys:
            d = np.diff(self.column(entity, key))
            reset |= ~(d >= 0)  # NaN (missing) or negative
            out[key] = d
        return out, reset

    def host_rates(self, counters: list[str], unit: Callable[[str], str], ctx: Context) -> Block:
        """The host-wide counters as `<key>/s` rates over each interval (units by `unit`), no rate
        where one went down (one warning for them all)."""
        t, dt, usable = self.intervals(ctx)
        d, _ = self.deltas("", counters)
        rates: dict[str, np.ndarray] = {}
        down = 0
        for k in counters:
            down += int((d[k] < 0).sum())
            with np.errstate(invalid="ignore", over="ignore"):
                rates[k + "/s"] = np.where(d[k] >= 0, d[k] / dt, np.nan)[usable]
            ctx.units.setdefault(k + "/s", unit(k))
        if down:
            ctx.warn(None, f"{down} counter(s) went down (reboot?): no rate for those intervals", kind="counter_reset")
        return Block("", t[usable], rates)

    def warn_resets(self, ctx: Context, entity: str, reset: np.ndarray, what: str) -> None:
        """One warning per interval where `entity`'s counters went down (not where it is missing)."""
        if not reset.any():
            return
        down: dict[int, list[str]] = {}
        for key in self.keys(entity):
            for i in np.flatnonzero(reset & (np.diff(self.column(entity, key)) < 0)):
                down.setdefault(int(i), []).append(key)
        for k in sorted(down):
            ctx.warn(
                self.lines[k + 1],
                f"{what} {entity} counters went down ({', '.join(down[k][:3])}): reboot or wrap? no values there",
                kind="counter_reset",
            )
