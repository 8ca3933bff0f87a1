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

from benchlens.importers._proc import collect, key_values, marked
from benchlens.importers._types import Block, Context

name = "meminfo"

_LINE = re.compile(r"^([A-Za-z][\w()]*):\s+(\S+)(?:\s+(kB))?\s*$")
_SNIFF = re.compile(r"^(?:MemTotal|MemFree|Buffers|Cached):\s+\d+ kB$", re.M)


def sniff(head: str) -> float:
    found = len(set(_SNIFF.findall(head)))
    if found < 2:
        return 0.0
    return marked(head)


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = collect(chunks, ctx, _snapshot)
    if not len(snaps):
        ctx.warn(None, "no /proc/meminfo snapshot after a `TS` marker", kind="format")
        return
    yield Block("", np.array(snaps.times), {k: snaps.column("", k) for k in snaps.keys("")})


def _snapshot(lines: list[str], first: int, ctx: Context) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for m, x in key_values(lines, first, ctx, _LINE, "/proc/meminfo"):
        out[("", m.group(1))] = x
        ctx.units.setdefault(m.group(1), m.group(3) or "")
    return out
