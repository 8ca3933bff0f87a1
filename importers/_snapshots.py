"""Repeated snapshots in one file: the output of a statement taken in a loop, each snapshot
preceded by a marker line that says when it was taken.

Markers recognised (alone on their line):
- `TS <epoch>[.frac] [anything]`       pt-stalk / pt-mext style: epoch seconds, UTC;
- `2026-11-22T02:09:24[.frac][Z|+0000|+00:00]`   ISO 8601 (`date -Is`, `date --rfc-3339`);
- `2026-11-22 02:09:24`                 `date '+%F %T'`: local wall clock;
- `Sun Nov 22 02:09:24 UTC 2026`        plain `date` in the C locale, with its zone abbreviation.
Naive times go through the folder clock (ctx.clock.wall); offsets and zone abbreviations are
recorded in ctx.meta (utc_offset, zone_abbrev) as evidence for the folder's zone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

from benchlens.importers._text import text_lines
from benchlens.importers._types import Context

_TS = re.compile(r"^TS (\d{9,11}(?:\.\d+)?)(?:\s.*)?$")
_ISO = re.compile(r"^(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:?\d\d)?$")
_DATE = re.compile(
    r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\w{3}) +(\d{1,2}) (\d\d:\d\d:\d\d) (?:([A-Z]{2,5}|[+-]\d{4}) )?(\d{4})$"
)
_MONTHS = {
    m: i + 1 for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"])
}


@dataclass
class Snapshot:
    t: float | None  # epoch seconds, or None for lines before the first marker
    lines: list[str]
    first_line: int  # 1-based line number of the snapshot's first line


def _naive(year: int, month: int, day: int, clock: str) -> float | None:
    """Naive seconds of a marker's date and time, or None when they are no time (2026-13-45,
    25:00:00, a year before the epoch): the line is then not a marker."""
    hh, mm, ss = (int(x) for x in clock.split(":"))
    try:
        naive = datetime(year, month, day, hh, mm, ss, tzinfo=UTC).timestamp()
    except ValueError:
        return None
    return naive if year >= 1970 else None


def marker_time(line: str, ctx: Context) -> float | None:
    """The epoch a marker line stands for, or None when the line is not a marker."""
    s = line.strip()
    if m := _TS.match(s):
        return float(m.group(1))
    if m := _ISO.match(s):
        y, mo, d = (int(x) for x in m.group(1).split("-"))
        naive = _naive(y, mo, d, m.group(2))
        if naive is None:
            return None
        zone = m.group(3)
        if zone:
            offset = 0 if zone == "Z" else (1 if zone[0] == "+" else -1) * (int(zone[1:3]) * 3600 + int(zone[-2:]) * 60)
            _offset(ctx, offset)
            return naive - offset
        return float(ctx.clock.wall(np.array([naive]))[0])
    if m := _DATE.match(s):
        month = _MONTHS.get(m.group(1))
        wall = _naive(int(m.group(5)), month, int(m.group(2)), m.group(3)) if month else None
        if wall is None:
            return None
        zone = m.group(4)
        if zone and zone[0] in "+-":
            offset = (1 if zone[0] == "+" else -1) * (int(zone[1:3]) * 3600 + int(zone[3:5]) * 60)
            _offset(ctx, offset)
            return wall - offset
        if zone and ctx.meta.zone_abbrev is None:
            ctx.meta.zone_abbrev = zone
        return float(ctx.clock.wall(np.array([wall]))[0])
    return None


def _offset(ctx: Context, seconds: int) -> None:
    if ctx.meta.utc_offset is None:  # the first offset seen is the file's evidence
        ctx.meta.utc_offset = float(seconds)


def snapshots(chunks: Iterator[bytes], ctx: Context) -> Iterator[Snapshot]:
    """Split the stream at marker lines. Text before the first marker is one snapshot with t None
    (a file holding a single snapshot, or snapshots timed by their own content)."""
    current = Snapshot(None, [], 1)
    line_no = 0
    for data in chunks:
        for line in text_lines(data):
            line_no += 1
            t = marker_time(line, ctx) if len(line) < 64 else None
            if t is None:
                current.lines.append(line)
                continue
            if current.lines or current.t is not None:
                yield current
            current = Snapshot(t, [], line_no + 1)
    if current.lines or current.t is not None:
        yield current
