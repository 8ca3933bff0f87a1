"""SHOW ENGINE INNODB MUTEX (and MySQL 5.0's SHOW MUTEX STATUS) taken in a loop.

Variants covered (fixtures in tests/fixtures/innodb_mutex; MySQL ones handwritten from the
documented layouts, MariaDB ones captured):
- 5.0 `SHOW MUTEX STATUS`: columns `Mutex Module Count Spin_waits Spin_rounds OS_waits OS_yields
  OS_waits_time`, one counter per column;
- 5.1/5.5/5.6 `Type Name Status`, Status `os_waits=N` (debug builds: `count=N, spin_waits=N,
  spin_rounds=N, os_waits=N, os_yields=N, os_wait_times=N`); names `buf0buf.c:1180`,
  `../../storage/innobase/log/log0log.c:775`, `combined buf0buf.c:935`, `&log_sys->mutex`;
- 5.7.8+/8.0: mutexes `spins=N,waits=N,calls=N`, rw-locks `waits=N` named `rwlock: dict0dict.cc:1184`
  or `sum rwlock: buf0buf.cc:1460`;
- MariaDB 10.x: an empty result (nothing, or `Empty set` with -v): no series, one warning;
- Percona Server 5.1/5.5 `show mutex status` pasted from its manual, cut at `.....` (real);
- any client shape (table, `-B`, `-B -N`, `\\G`, see _mysql_table) with marker lines before each
  snapshot (`TS <epoch> ...`, ISO, `date`), or a single snapshot without marker.

Metrics: the counters as named in the Status text (`os_waits`, `spin_waits`, `spin_rounds`, `spins`,
`waits`, `calls`, `count`, `os_yields`, `os_wait_times`; 5.0 columns lower-cased, `OS_waits_time` read
as `os_wait_times`) as per-second rates between snapshots (1/s; os_wait_times ms/s), at the later
snapshot's time. Entity: the mutex name as printed (5.0: the Mutex column). Rows repeating a name
(one per instance) are summed. Zero rows are not printed, so a name missing from a snapshot is 0;
a counter going down is a restart (no rate for that interval, a warning). A file holding one
snapshot keeps the totals since start (unit: count, ms) for top-N tables. A snapshot with no rows
is skipped (a failed query looks the same); a batch or vertical last snapshot lacking names of the
one before is taken as cut and dropped (a cut row that was new in it cannot be seen). A table
without its closing border is dropped with a warning among several snapshots (its missing rows
would read as zeros); a single one (a table pasted from a manual up to `.....`) keeps its complete
rows as totals, with a warning that says the rows after the cut are missing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from benchlens.importers import _mysql_table as mt
from benchlens.importers._counters import Snapshots
from benchlens.importers._types import Block, Context

name = "innodb_mutex"

HEADERS = (frozenset({"type", "name", "status"}), frozenset({"mutex", "module", "os_waits"}))
ALIASES = {"os_waits_time": "os_wait_times"}  # 5.0 column vs the 5.1 debug Status key
RATE_UNITS = {"os_wait_times": "ms/s"}
TOTAL_UNITS = {"os_wait_times": "ms"}
_PAIR = re.compile(r"([A-Za-z_]+)=(\d+)")
_COUNT = re.compile(r"\s*([0-9]+)\s*")
_MONITOR = re.compile(r"INNODB MONITOR OUTPUT")
_STATEMENT = re.compile(r"SHOW\s+(?:ENGINE\s+INNODB\s+MUTEX|MUTEX\s+STATUS)\b", re.I)
_STATUS_VALUE = re.compile(r"\b(?:os_)?waits=\d", re.M)
_HEADER_TNS = re.compile(r"^\|?\s*Type\s*[|\t]\s*Name\s*[|\t]\s*Status\s*\|?\s*$", re.M)
_VERTICAL_TNS = re.compile(r"^\s*Type: InnoDB\s*\n\s*Name: .*\n\s*Status: .*waits=\d", re.M)
_HEADER_50 = re.compile(r"^\|?\s*Mutex\s*[|\t]\s*Module\s*[|\t].*\bOS_waits\b", re.M)
_VERTICAL_50 = re.compile(r"^\s*Mutex: .*\n\s*Module: .*\n(?:.*\n){0,3}?\s*OS_waits: \d", re.M)
_HEADERLESS = re.compile(r"^InnoDB\t[^\t\n]+\t(?:[a-z_]+=\d+,\s*)*(?:os_)?waits=\d", re.M)


def sniff(head: str) -> float:
    if _MONITOR.search(head):  # SHOW ENGINE INNODB STATUS: also Type/Name/Status, never ours
        return 0.0
    if _STATEMENT.search(head):
        return 0.95
    if _HEADER_TNS.search(head) and _STATUS_VALUE.search(head):
        return 0.95
    if _VERTICAL_TNS.search(head) or _HEADER_50.search(head) or _VERTICAL_50.search(head):
        return 0.95
    return 0.9 if _HEADERLESS.search(head) else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    taken = list(mt.snapshot_results(chunks, ctx, _wanted, HEADERS, ["Type", "Name", "Status"], keep_cut=True))
    with_rows = [s for s in taken if s.result is not None and s.result.rows]
    empty = len(taken) - len(with_rows)
    if len(with_rows) == 1 and with_rows[0].result is not None and with_rows[0].result.complete is False:
        # One table pasted without its closing border (a manual's `.....`, a copy cut short): its
        # complete rows are what the server printed; the rows after the cut are unknown, not zero.
        res = with_rows[0].result
        ctx.warn(
            res.first_line,
            f"table cut short (no closing border): its {len(res.rows)} complete row(s) read, "
            "the rows after the cut are missing",
            kind="truncated",
        )
    else:
        for s in [s for s in with_rows if s.result is not None and s.result.complete is False]:
            # among several snapshots a cut one would read its missing rows as zeros: dropped
            assert s.result is not None
            ctx.warn(
                s.result.first_line,
                f"result cut short ({len(s.result.rows)} rows, no closing border); skipped",
                kind="truncated",
            )
            with_rows.remove(s)
    snaps = Snapshots(absent_is_zero=True)
    lines: list[int] = []
    last_complete: bool | None = True
    for s in with_rows:
        assert s.result is not None
        values = _values(s.result, ctx)
        if not values:
            continue
        snaps.add(s.t, values)
        lines.append(s.line)
        last_complete = s.result.complete
    if not len(snaps):
        if empty == len(taken):
            ctx.warn(None, "no mutex rows (MariaDB prints none)", kind="format")
        else:
            ctx.warn(None, "no readable mutex rows", kind="format")
        return
    if empty:
        ctx.warn(
            None,
            f"{empty} snapshot(s) without rows (failed query, or all counters zero after a restart); skipped",
            kind="unreadable",
        )
    if len(snaps) > 1 and last_complete is None:
        gone = mt.missing_names({e for e, _ in snaps.values[-2]}, {e for e, _ in snaps.values[-1]})
        if gone:
            ctx.warn(
                lines[-1],
                f"last snapshot looks cut ({len(gone)} names of the one before missing); skipped",
                kind="truncated",
            )
            snaps.times.pop()
            snaps.values.pop()
            lines.pop()
    if len(snaps) == 1:
        ctx.note_variant("single snapshot: totals since start")
        yield from snaps.totals(ctx, TOTAL_UNITS)
        return
    _warn_resets(snaps, lines, ctx)
    yield from snaps.rates(ctx, RATE_UNITS)


def _wanted(res: mt.Result) -> bool:
    cols = {c.lower() for c in res.columns}
    return any(h <= cols for h in HEADERS)


def _values(res: mt.Result, ctx: Context) -> dict[tuple[str, str], float]:
    """Counters of one snapshot, summed over the rows that share a name."""
    out: dict[tuple[str, str], float] = {}
    old = "mutex" in res.rows[0].cells
    if old:
        ctx.note_variant("SHOW MUTEX STATUS (5.0)")
    for row in res.rows:
        if row.continued:
            ctx.warn(row.line, "value over several lines; row skipped", kind="unreadable")
            continue
        if old:
            entity = row.cells["mutex"] or row.cells["module"]
            pairs = [(k, v) for k, v in row.cells.items() if k not in ("mutex", "module")]
        else:
            entity = row.cells["name"]
            pairs = _PAIR.findall(row.cells["status"])
            if not pairs:
                ctx.warn(
                    row.line, f"no counters in status {row.cells['status'][:60]!r}; row skipped", kind="unreadable"
                )
                continue
            ctx.note_variant(_status_variant(pairs[0][0]))
        for key, text in pairs:
            count = _COUNT.fullmatch(text)
            if count is None:
                ctx.warn(row.line, f"{key} is not a count: {text[:40]!r}; skipped", kind="unreadable")
                continue
            v = float(count.group(1))  # not int(): it takes `1_000` and 5000 digits are an error
            metric = ALIASES.get(key.lower(), key.lower())
            out[(entity, metric)] = out.get((entity, metric), 0.0) + v
    return out


def _status_variant(first_key: str) -> str:
    if first_key in ("spins", "waits"):
        return "spins/waits/calls (5.7+)"
    if first_key == "count":
        return "count/spin_waits/spin_rounds/os_waits/os_yields/os_wait_times (debug build)"
    return "os_waits (5.1-5.6)"


def _warn_resets(snaps: Snapshots, lines: list[int], ctx: Context) -> None:
    """Say where the counters went down (restart or reset), with the snapshot's line."""
    for k in range(1, len(snaps)):
        before, now = snaps.values[k - 1], snaps.values[k]
        down = [e for (e, m), v in before.items() if now.get((e, m), 0.0) < v]
        if down:
            names = ", ".join(sorted(set(down))[:3])
            ctx.warn(
                lines[k],
                f"counters went down since the snapshot before ({names} ...): restart? no rate there",
                kind="counter_reset",
            )
