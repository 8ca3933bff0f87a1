"""Performance Schema summaries taken in a loop (`SELECT ... FROM performance_schema.<table>`),
in any mysql client shape (table, -B, \\G; see _mysql_table), with time markers between snapshots.

Tables: `events_waits_summary_global_by_event_name` (5.5: `..._by_event_name`),
`..._by_instance` and `..._by_thread_by_event_name` (rows summed per EVENT_NAME), and
`file_summary_by_event_name` / `file_summary_by_instance` (entity FILE_NAME; 5.5 columns COUNT_READ,
COUNT_WRITE, SUM_NUMBER_OF_BYTES_READ/WRITE, 5.6.4+ adds COUNT_STAR and timers). Column and table
names are matched case-insensitively (5.5-era dumps print them upper case).
Everything is cumulative (reset by a restart or TRUNCATE): between snapshots
- `COUNT_STAR`, `COUNT_READ`, `COUNT_WRITE` become rates (1/s),
- `SUM_TIMER_WAIT` (picoseconds) becomes milliseconds of wait per second (`ms/s`),
- `SUM_NUMBER_OF_BYTES_READ/WRITE` become B/s,
- `AVG_TIMER_WAIT` is recomputed from the deltas (µs per event in the interval): the printed
  AVG/MIN/MAX are not additive and are not imported.
Entity: the event name (`wait/io/file/innodb/innodb_data_file`) or the file name. A single
snapshot keeps the totals (for top-N tables). Not read: mysqldump INSERTs and sys-schema views with
formatted units (`12.74 ms`).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from importers import _mysql_table as mt
from importers._counters import Snapshots
from importers._types import Block, Context

name = "perfschema"

RATE_UNITS = {
    "COUNT_STAR": "1/s",
    "COUNT_READ": "1/s",
    "COUNT_WRITE": "1/s",
    "SUM_TIMER_WAIT": "ms/s",
    "SUM_NUMBER_OF_BYTES_READ": "B/s",
    "SUM_NUMBER_OF_BYTES_WRITE": "B/s",
}
SCALE = {"SUM_TIMER_WAIT": 1e-9}  # picoseconds per second -> milliseconds per second
HEADERS = [frozenset({"event_name", "count_star"}), frozenset({"event_name", "count_read"})]


def sniff(head: str) -> float:
    low = head.lower()
    if "event_name" in low and ("count_star" in low or "count_read" in low) and "innodb monitor output" not in low:
        return 0.95
    return 0.0


def _wanted(res: mt.Result) -> bool:
    cols = {c.lower() for c in res.columns}
    return "event_name" in cols and bool(cols & {"count_star", "count_read"})


def _values(res: mt.Result, ctx: Context) -> dict[tuple[str, str], float]:
    key = "file_name" if "file_name" in {c.lower() for c in res.columns} else "event_name"
    out: dict[tuple[str, str], float] = {}
    for row in res.rows:
        entity = row.cells.get(key, "").strip()
        if not entity:
            continue
        for metric in RATE_UNITS:
            text = row.cells.get(metric.lower())
            if text is None or text in ("", "NULL"):
                continue
            try:
                v = float(text)
            except ValueError:
                ctx.warn(row.line, f"{metric} {text[:20]!r} is not a number; skipped")
                continue
            out[(entity, metric)] = out.get((entity, metric), 0.0) + v  # instances/threads summed
    return out


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = Snapshots(absent_is_zero=True)
    for taken in mt.snapshot_results(chunks, ctx, _wanted, HEADERS):
        if taken.result is None or not taken.result.rows:
            continue
        values = _values(taken.result, ctx)
        if values:
            snaps.add(taken.t, values)
    if not len(snaps):
        ctx.warn(None, "no Performance Schema rows (is performance_schema ON?)")
        return
    if len(snaps) == 1:
        ctx.note_variant("single snapshot: totals since start")
        yield from snaps.totals(ctx, {m: "ps" if m == "SUM_TIMER_WAIT" else "" for m in RATE_UNITS})
        return
    for block in snaps.rates(ctx, RATE_UNITS):
        scaled = {m: v * SCALE.get(m, 1.0) for m, v in block.values.items()}
        if "SUM_TIMER_WAIT" in scaled and "COUNT_STAR" in scaled:
            wait, count = scaled["SUM_TIMER_WAIT"], scaled["COUNT_STAR"]
            with np.errstate(invalid="ignore", divide="ignore"):  # ms/s over 1/s -> us per event
                scaled["AVG_TIMER_WAIT"] = np.where(count > 0, wait / count * 1e3, np.nan)
            ctx.units["AVG_TIMER_WAIT"] = "us"
        yield Block(block.entity, block.t, scaled)
