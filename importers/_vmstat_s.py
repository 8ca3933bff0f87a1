"""`vmstat -s` taken in a loop (`while :; do date; vmstat -s; sleep 1; done`): a marker line before
each summary (any marker importers/_snapshots.py knows: plain `date` in the C locale, `date -Is`,
`date '+%F %T'`, pt-stalk's `TS`), then one `<number> <label>` line per figure. Read by
importers/vmstat.py, whose format it is (the same program, its `-s` form).

Read as a user who recorded it expects, the memory over time and the event rates, because the
summary holds both kinds and says which each line is (procps-ng 4.0.2, English labels):
- gauges, as printed at the marker's time (unit kB, KiB really, as vmstat's memory columns):
  `total memory`, `used memory`, `active memory`, `inactive memory`, `free memory`,
  `buffer memory`, `swap cache` (the page cache, as procps labels it), `total swap`, `used swap`,
  `free swap`;
- counters since boot, as per-second rates between two snapshots at the later one's time, named
  `<label>/s`: the ten `... cpu ticks` (unit ticks/s: USER_HZ, 100 a second per CPU), `paged in`
  and `paged out` (kB/s, vmstat's `bi`/`bo`), `pages swapped in`/`out`, `interrupts`, `CPU context
  switches`, `forks` (1/s); a counter going down (reboot) gives no rate there, warned;
- not kept: `boot time` (an epoch, the same in every snapshot).
Refused in one warning that names it: summaries without a marker line (a single `vmstat -s`, or a
loop whose `date` printed in another language: no time to place them at). Lines with labels this
does not know (another language: de_DE translates most of them, another procps) are skipped with
one warning that quotes the first.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._proc import Counters
from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Block, Context

GAUGES = (
    "total memory",
    "used memory",
    "active memory",
    "inactive memory",
    "free memory",
    "buffer memory",
    "swap cache",
    "total swap",
    "used swap",
    "free swap",
)
TICKS = tuple(
    f"{what} cpu ticks"
    for what in (
        *("non-nice user", "nice user", "system", "idle", "IO-wait", "IRQ", "softirq", "stolen"),
        *("non-nice guest", "nice guest"),
    )
)
COUNTERS = {
    **dict.fromkeys(TICKS, "ticks/s"),
    "paged in": "kB/s",
    "paged out": "kB/s",
    "pages swapped in": "1/s",
    "pages swapped out": "1/s",
    "interrupts": "1/s",
    "CPU context switches": "1/s",
    "forks": "1/s",
}
IGNORED = frozenset({"boot time"})
# `  24684096 K total memory`: the number, `K ` where it counts KiB, the label
_LINE = re.compile(r"^\s*(\d+) (K )?(\S.*?)\s*$")
_SNIFF_K = re.compile(r"^ *\d+ K \S", re.M)
_SNIFF_TICKS = re.compile(r"^ *\d+ \S.*ticks$", re.M | re.I)


def looks_like(head: str) -> bool:
    """Memory lines counted in `K` and cpu tick lines, in any language procps prints ticks in."""
    return len(_SNIFF_K.findall(head)) >= 5 and len(_SNIFF_TICKS.findall(head)) >= 3


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    ctx.note_variant("summary snapshots (-s)")
    snaps = Counters()
    unknown: tuple[int, str] | None = None
    untimed = 0
    for s in snapshots(chunks, ctx):
        if s.t is None:
            untimed = sum(1 for line in s.lines if _LINE.match(line))
            continue
        values: dict[tuple[str, str], float] = {}
        for i, line in enumerate(s.lines):
            m = _LINE.match(line)
            if m is not None and (m.group(3) in GAUGES or m.group(3) in COUNTERS):
                values["", m.group(3)] = float(m.group(1))
            elif (m is None or m.group(3) not in IGNORED) and line.strip() and unknown is None:
                unknown = (s.first_line + i, line.strip())
        if values:
            snaps.add(s.t, s.first_line, values)
    if unknown is not None:
        ctx.warn(
            unknown[0],
            f"vmstat -s lines this does not know (another language or procps?) skipped, first: {unknown[1][:60]!r}",
            kind="unreadable",
        )
    if not len(snaps):
        ctx.warn(
            None,
            "vmstat -s summary without a `date` line benchlens reads before it"
            + (f" ({untimed} lines)" if untimed else "")
            + ": no time to place it at",
            kind="format",
        )
        return
    yield from _blocks(snaps, ctx)


def _blocks(snaps: Counters, ctx: Context) -> Iterator[Block]:
    keys = snaps.keys("")
    gauges = [k for k in keys if k in GAUGES]
    if gauges:
        for k in gauges:
            ctx.units.setdefault(k, "kB")
        yield Block("", np.array(snaps.times), {k: snaps.column("", k) for k in gauges})
    counters = [k for k in keys if k in COUNTERS]
    if len(snaps) < 2 or not counters:
        if counters:
            ctx.warn(None, "one vmstat -s snapshot: its counters since boot need two for a rate", kind="format")
        return
    yield snaps.host_rates(counters, COUNTERS.__getitem__, ctx)
