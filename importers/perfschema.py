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
  AVG/MIN/MAX are not additive and are not imported, except from a select of some columns with no
  counter at all (`EVENT_NAME, AVG_TIMER_WAIT`): then they are kept as printed, in µs, as
  `AVG_TIMER_WAIT_since_start` (MIN_, MAX_ likewise).
A select of any subset of these columns is read (`EVENT_NAME, SUM_TIMER_WAIT` gives only ms/s).
Recognised by a result's layout (a header row, or `\\G` rows, with EVENT_NAME and a summary column),
never by the words alone: slow logs and pt-query-digest reports quote them from the query.
Entity: the event name (`wait/io/file/innodb/innodb_data_file`) or the file name. A single
snapshot keeps the totals (for top-N tables).
mysqldump output is read too: `INSERT INTO `table` [(columns)] VALUES (...),(...);` with the
column names from `--complete-insert`, else from the dump's own `CREATE TABLE`, else the table's
documented column order (5.5/5.6 wait and file summaries). Not read: sys-schema views with
formatted units (`12.74 ms`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import numpy as np

from benchlens.importers import _mysql_table as mt
from benchlens.importers._counters import Snapshots
from benchlens.importers._read import prepend
from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Block, Context

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
# COUNT_* and SUM_* are BIGINT UNSIGNED: digits, never a sign or an exponent (a count of 1e-320 would
# make an infinite average wait)
_NUMBER = re.compile(r"\s*[0-9]+(?:\.[0-9]+)?\s*")
# Printed MIN/AVG/MAX_TIMER_WAIT (since start, not additive): kept, as `<column>_since_start` in
# microseconds, only from a select that has no counter to take deltas of.
TIMERS = ("AVG_TIMER_WAIT", "MIN_TIMER_WAIT", "MAX_TIMER_WAIT")
PRINTED = "_since_start"
# rows of one name (instances, threads): the lowest MIN, the highest MAX; averages cannot be
# combined without their counts, so the first row's is kept
_COMBINE: dict[str, Callable[[float, float], float]] = {
    "MIN_TIMER_WAIT": min,
    "MAX_TIMER_WAIT": max,
    "AVG_TIMER_WAIT": lambda first, _other: first,
}
_SUMMARY = frozenset(m.lower() for m in (*RATE_UNITS, *TIMERS))  # a select of any of them is read
HEADERS = [frozenset({"event_name", c}) for c in sorted(_SUMMARY)]
# the summary tables' own column names (their keys and their COUNT_/SUM_/MIN_/AVG_/MAX_ columns)
# \G output: `EVENT_NAME: wait/...` then a summary column with its number within a few lines
_VERTICAL = re.compile(r"^\s*event_name: \S.*\n(?:.*\n){0,6}?\s*(?:" + "|".join(sorted(_SUMMARY)) + r"): \d", re.M)
_PS_COLUMN = re.compile(
    r"event_name|file_name|object_instance_begin|thread_id|user|host|(?:count|sum|min|avg|max)_[a-z_]+", re.I
)


def sniff(head: str) -> float:
    low = head.lower()
    if "event_name" in low and "innodb monitor output" not in low and (_header(low) or _VERTICAL.search(low)):
        return 0.95
    if re.search(r"^insert into `?(?:" + "|".join(DUMP_COLUMNS) + ")", low, re.M):
        return 0.95  # a mysqldump of a Performance Schema summary without column names
    return 0.0


def _header(low: str) -> bool:
    """A result's header row (table or -B) with EVENT_NAME and a summary column: the layout, not
    the words, which a slow log or pt-query-digest's report quotes from the query itself."""
    for line in low.splitlines()[:2000]:
        if "event_name" in line and ("|" in line or "\t" in line):
            cells = {c.strip() for c in re.split(r"[|\t]", line)}
            if "event_name" in cells and cells & _SUMMARY:
                return True
    return False


def _wanted(res: mt.Result) -> bool:
    cols = {c.lower() for c in res.columns}
    return "event_name" in cols and bool(cols & _SUMMARY)


def _values(res: mt.Result, ctx: Context) -> dict[tuple[str, str], float]:
    _unread(res, ctx)
    cols = {c.lower() for c in res.columns}
    key = "file_name" if "file_name" in cols else "event_name"
    counters = [m for m in RATE_UNITS if m.lower() in cols]
    metrics = counters or [m for m in TIMERS if m.lower() in cols]
    out: dict[tuple[str, str], float] = {}
    for row in res.rows:
        entity = row.cells.get(key, "").strip()
        if not entity:
            continue
        for metric in metrics:
            text = row.cells.get(metric.lower())
            if text is None or text in ("", "NULL"):
                continue
            if not _NUMBER.fullmatch(text):  # float() would take `1_000`, `inf` and other digits than 0-9
                ctx.warn(row.line, f"{metric} {text[:20]!r} is not a number; skipped", kind="unreadable")
                continue
            v = float(text)
            if counters:
                out[(entity, metric)] = out.get((entity, metric), 0.0) + v  # instances/threads summed
                continue
            printed = (entity, metric + PRINTED)
            old = out.get(printed)
            out[printed] = v if old is None else _COMBINE[metric](old, v)
    return out


def _unread(res: mt.Result, ctx: Context) -> None:
    """Said once per file: columns that are not Performance Schema's (an expression such as
    `SUM_TIMER_WAIT/1000000000`, an alias such as `wait_ms`) are not read, whatever they hold."""
    other = [c.strip() for c in res.columns if not _PS_COLUMN.fullmatch(c.strip())]
    if not other:
        return
    text = "not Performance Schema columns (an expression or an alias?), not read: " + ", ".join(other)
    if all(w.text != text for w in ctx.warnings):
        ctx.warn(res.first_line, text, kind="column")


# Documented column orders, for dumps without --complete-insert or CREATE TABLE.
DUMP_COLUMNS = {
    "events_waits_summary_global_by_event_name": [
        "EVENT_NAME",
        "COUNT_STAR",
        "SUM_TIMER_WAIT",
        "MIN_TIMER_WAIT",
        "AVG_TIMER_WAIT",
        "MAX_TIMER_WAIT",
    ],
    "file_summary_by_event_name": [
        "EVENT_NAME",
        "COUNT_READ",
        "COUNT_WRITE",
        "SUM_NUMBER_OF_BYTES_READ",
        "SUM_NUMBER_OF_BYTES_WRITE",
    ],
}
_INSERT = re.compile(r"^INSERT INTO `?(\w+)`?\s*(?:\(([^)]*)\))?\s*VALUES\s*(.*?);?\s*$", re.I | re.S)
_CREATE = re.compile(r"^CREATE TABLE `?(\w+)`?", re.I)
_COLUMN_DEF = re.compile(r"^\s*`?(\w+)`?\s+\w")
_VALUE = re.compile(r"'((?:[^'\\]|\\.|'')*)'|(NULL)|(-?[\d.]+(?:[eE][-+]?\d+)?)", re.I)


def _tuples(values: str) -> Iterator[list[str | None]]:
    """The rows of `(a,'b',NULL),(...)`, quotes and escapes respected."""
    depth, i = 0, 0
    row: list[str | None] = []
    while i < len(values):
        c = values[i]
        if c == "(":
            depth, row = 1, []
        elif c == ")" and depth:
            depth = 0
            yield row
        elif depth and (m := _VALUE.match(values, i)):
            if m.group(1) is not None:  # a quoted string: '' and backslash escapes undone
                row.append(re.sub(r"\\(.)", r"\1", m.group(1).replace("''", "'")))
            else:
                row.append(None if m.group(2) else m.group(3))
            i = m.end()
            continue
        i += 1


def _dump_snapshots(chunks: Iterator[bytes], ctx: Context, snaps: Snapshots) -> None:
    created: dict[str, list[str]] = {}
    for snap in snapshots(chunks, ctx):
        values: dict[tuple[str, str], float] = {}
        table: str | None = None
        for k, line in enumerate(snap.lines):
            if m := _CREATE.match(line):
                table, created[m.group(1).lower()] = m.group(1).lower(), []
                continue
            if table is not None and line.lstrip().startswith(")"):
                table = None  # the end of CREATE TABLE
                continue
            if (
                table is not None
                and (c := _COLUMN_DEF.match(line))
                and not line.lstrip().upper().startswith(("PRIMARY", "KEY", "UNIQUE"))
            ):
                created[table].append(c.group(1))
                continue
            m = _INSERT.match(line.strip())
            if m is None:
                continue
            name = m.group(1).lower()
            cols = (
                [c.strip(" `") for c in m.group(2).split(",")]
                if m.group(2)
                else created.get(name) or DUMP_COLUMNS.get(name)
            )
            if not cols:
                ctx.warn(snap.first_line + k, f"INSERT into {name} without known columns; skipped", kind="column")
                continue
            res = mt.Result("table", cols, snap.first_line + k)
            for row in _tuples(m.group(3)):
                cells = {c.lower(): (v if v is not None else "NULL") for c, v in zip(cols, row, strict=False)}
                res.rows.append(mt.Row(snap.first_line + k, cells))
            if _wanted(res):
                values.update(_values(res, ctx))
        if values and snap.t is not None:
            snaps.add(snap.t, values)
        elif values:
            ctx.warn(snap.first_line, "a dump without a time marker; skipped", kind="time")
    ctx.note_variant("mysqldump INSERTs")


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = Snapshots(absent_is_zero=True, persistent=True)  # summary rows stay unless the select leaves them out
    first = next(chunks, b"")
    rest = prepend(first, chunks)
    if re.search(rb"^INSERT INTO", first[: 256 << 10], re.M | re.I):
        _dump_snapshots(rest, ctx, snaps)
        yield from _blocks(snaps, ctx)
        return
    for taken in mt.snapshot_results(rest, ctx, _wanted, HEADERS):
        if taken.result is None or not taken.result.rows:
            continue
        values = _values(taken.result, ctx)
        if values:
            snaps.add(taken.t, values)
    yield from _blocks(snaps, ctx)


def _blocks(snaps: Snapshots, ctx: Context) -> Iterator[Block]:
    if not len(snaps):
        ctx.warn(None, "no Performance Schema rows (is performance_schema ON?)", kind="format")
        return
    if all(m.endswith(PRINTED) for _, m in snaps.keys()):  # noqa: SIM118 (not a dict)
        ctx.note_variant("printed timer columns only: kept as printed (since start)")
        for block in snaps.totals(ctx, {m + PRINTED: "us" for m in TIMERS}):
            yield Block(block.entity, block.t, {m: v * 1e-6 for m, v in block.values.items()})  # ps -> us
        return
    if len(snaps) == 1:
        ctx.note_variant("single snapshot: totals since start")
        yield from snaps.totals(ctx, {m: "ps" if m == "SUM_TIMER_WAIT" else "" for m in RATE_UNITS})
        return
    for block in snaps.rates(ctx, RATE_UNITS):
        scaled = {m: v * SCALE.get(m, 1.0) for m, v in block.values.items()}
        if "SUM_TIMER_WAIT" in scaled and "COUNT_STAR" in scaled:
            wait, count = scaled["SUM_TIMER_WAIT"], scaled["COUNT_STAR"]
            with np.errstate(invalid="ignore", divide="ignore", over="ignore"):  # ms/s over 1/s -> us per event
                scaled["AVG_TIMER_WAIT"] = np.where(count > 0, wait / count * 1e3, np.nan)
            ctx.units["AVG_TIMER_WAIT"] = "us"
        yield Block(block.entity, block.t, scaled)
