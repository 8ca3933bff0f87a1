"""/proc/meminfo taken in a loop (pt-stalk's `-meminfo` file): `TS <epoch> …` marker lines, each
followed by the raw file (`Key:   value kB`), kept as gauges.

Variants covered (fixtures in tests/fixtures/meminfo): kernel 6.x (55 keys); any kernel's key set
(keys come and go between kernels: each key is a series of its own, NaN where a snapshot lacks it).

Metrics (entity ""): every key as printed (`MemFree`, `Cached`, `Dirty`, `Writeback`,
`Active(file)`, `HugePages_Total` …), its value at the snapshot's time, **in kB as printed**
(unit `kB`, KiB really, as vmstat's memory columns are kept), or a plain count for the keys
printed without a unit (`HugePages_*`, unit ""). Nothing is scaled, so a value is always the
number in the file. A single snapshot gives one sample per key.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._proc import count, timed_snapshots
from benchlens.importers._types import Block, Context, append_row

name = "meminfo"

_LINE = re.compile(r"^([A-Za-z][\w()]*):\s+(\S+)(?:\s+(kB))?\s*$")
_SNIFF = re.compile(r"^(?:MemTotal|MemFree|Buffers|Cached):\s+\d+ kB$", re.M)
_TS = re.compile(r"^TS \d{9,11}(?:\.\d+)?\b", re.M)


def sniff(head: str) -> float:
    found = len(set(_SNIFF.findall(head)))
    if found < 2:
        return 0.0
    return 0.95 if _TS.search(head) else 0.6


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    times: list[float] = []
    rows: dict[tuple[str, str], list[float]] = {}
    for when, first, lines in timed_snapshots(chunks, ctx):
        values = _snapshot(lines, first, ctx)
        if values:
            append_row(rows, len(times), values)
            times.append(when)
    if not times:
        ctx.warn(None, "no /proc/meminfo snapshot after a `TS` marker", kind="format")
        return
    yield Block("", np.array(times), {m: np.array(v, np.float64) for (_, m), v in rows.items()})


def _snapshot(lines: list[str], first: int, ctx: Context) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        m = _LINE.match(line)
        x = count(m.group(2)) if m else None
        if m is None or x is None:
            if ctx.room():
                ctx.warn(first + i, f"not a /proc/meminfo line: {line.strip()[:60]!r}; skipped", kind="unreadable")
            continue
        out[("", m.group(1))] = x
        ctx.units.setdefault(m.group(1), m.group(3) or "")
    return out
