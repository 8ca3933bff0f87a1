"""tpcc-mysql (`tpcc_start`, Percona-Lab/tpcc-mysql and its forks): the per-interval report lines.

No real capture was possible here (tpcc-mysql is not packaged): the layouts below were read from
the printf calls of Percona-Lab/tpcc-mysql `src/main.c` (several versions) and from logs published
in public repositories; the fixtures in tests/fixtures/tpcc are written by hand from them, but one
real log copied from a blog.

Interval lines accepted (`%4d` seconds, so the time is right-aligned in 4 characters; copies with
the leading blanks stripped are accepted too):
- "trx" layout (current main.c, alarm_handler):
  `  10, trx: 12920, 95%: 9.483, 99%: 18.738, max_rt: 213.169, 12919|98.778, 1292|101.654, 1293|215.097, 129|288.876`
  time, New-Order transactions completed in the interval, New-Order 95th/99th percentile and
  maximum response time, then `count|max_rt` of Payment, Order-Status, Delivery, Stock-Level.
  Published logs also show `95: 8.718, 99: 11.264` (the `%` of the format `95%: ` not printed by
  some C libraries): both spellings are read. `nan`/`-nan` values are read as NaN.
- "rt90" layout (older main.c): `  10, 407(0):11.636|25.259, 407(69):19.999|62.046, 40(0):13.856|40.059,
  40(0):17.553|22.056, 40(10):19.939|72.501` -- for each of the 5 types in order:
  count(late):rt90|max_rt; builds with _SLEEP_ONLY_ print `count(late):rt90` (`%.2f`) without
  `|max_rt` (also read). rt90 is what
  rthist.c's hist_ckp returns (called "90%" by the tool; in the versions read it is the point where
  95% of the summed response time is reached, and it saturates at 19.999 -- the histogram has
  20 x 1000 buckets). Stored as lat_ms entity `90`.
A log pasted into markdown (a blog exported to .md: `\\[connection]: 10`, `\\*\\*\\*`, `&lt;`) is
read once its escapes are undone (variant "pasted into markdown"; a real copy is a fixture).
Not accepted (warning per line): the tpcc-sqlite fork's `  10, measure, trx: ...` lines.

Units: response times are milliseconds. driver.c computes `rt = Δtv_sec*1000 + Δtv_nsec/1e6`
(clock_gettime) in the versions read; the README says "sec", but its own example (9.483 at ~1300
New-Order/s) is only consistent with ms. The unit of builds older than those could not be checked.

Times. The interval timer starts at `MEASURING START.`, after the ramp-up sleep: printed times count
from the end of the ramp-up, while the load (the threads) starts with the ramp-up. Times handed to
ctx.clock.relative are therefore seconds since the load started = ramp-up + printed time (variant
says so; the run's meta `rampup` holds the seconds); without a `[rampup]:`/`RAMP-UP TIME.(N sec.)` line the
printed times are used as they are, with a warning. The interval of a line is its time minus the
previous line's time (the first line: its time, the timer starts at 0); rates (`tps`) divide by the
report interval (`option i`, else the shortest such step of the run), never by a longer step left
by elided or lost lines, which gets a `line N:` warning.
Several runs in one log (a new banner or `MEASURING START.` after interval lines, or times going
back): each run is placed right after the previous one, like sysbench step loads.

Metrics (entity "" unless said): `tps` = New-Order transactions / interval (1/s; the TpmC basis,
not all transaction types), `trx` (New-Order count as printed), `lat_ms` (ms) entities `95`, `99`,
`max` ("trx" layout) or `90`, `max` ("rt90" layout), `thds` (the run's [connection], threads),
`<Type>_count` and `<Type>_max_ms` for Payment, Order-Status, Delivery, Stock-Level (the order is
fixed in tpcc_start: [0] New-Order ... [4] Stock-Level, as in its summary), and in the "rt90"
layout `trx_late`, `<Type>_late`, `<Type>_p90_ms`. A response time printed for an interval whose
count is 0 (`trx: 0, 95%: 0.000 ...`) is no sample: NaN.
Meta: ctx.meta.tpcc_runs lists every run's TpccRun (the library keeps the first run's threads,
warehouses and tpmc): threads ([connection]), warehouses, rampup, measure, server, port, database,
interval (`option i`), tpmc (`<TpmC>` then `N TpmC`), raw_results ({type: {sc, lt, rt, fl}} of
`<Raw Results>`), measured_s (` in N sec.`), constraints_ok (every `<Constraint Check>` line [OK]).
The `[pass]:` and `option p` values (the password) are never kept. ctx.meta.log_runs holds the
runs of the log, as sysbench's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing, TpccRun, append_row

name = "tpcc"

TYPES = ("New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level")
OTHERS = TYPES[1:]

_N = r"(-?nan|-?inf|\d+(?:\.\d+)?)"
_TRX = re.compile(
    r"^\s*(\d+),\s*trx:\s*(\d+),\s*95%?:\s*"
    + _N
    + r",\s*99%?:\s*"
    + _N
    + r",\s*max_rt:\s*"
    + _N
    + r"".join(r",\s*(\d+)\|" + _N for _ in OTHERS)
    + r",?\s*$",
    re.I,
)
_RT90 = re.compile(
    r"^\s*(\d+)" + r"".join(r",\s*(\d+)\((\d+)\):" + _N + r"(?:\|" + _N + r")?" for _ in TYPES) + r"\s*$"
)
_LOOKS = re.compile(r"^\s*\d+,\s*(?:trx:|\d+\(\d+\):|[a-z]+,\s*trx:)")  # what an interval line starts like
_PARAM = re.compile(r"^\s*\[(\w+)\]:\s*(.*?)\s*$")
_RAMPUP = re.compile(r"RAMP-UP TIME\.?\s*\(\s*(\d{1,18})\s*sec")
_OPTION_I = re.compile(r"^option i with value '(\d{1,18})'")
_RAW = re.compile(r"^\s*\[(\d)\]\s*sc:\s*(\d{1,18})\s+lt:\s*(\d{1,18})\s+rt:\s*(\d{1,18})\s+fl:\s*(\d{1,18})(?!\d)")
_MEASURED = re.compile(r"^\s*in\s+(\d+(?:\.\d+)?)\s+sec\.")
_TPMC = re.compile(r"^\s*(\d+(?:\.\d+)?)\s+TpmC\b")
_CHECK = re.compile(r"\[(OK|NG)\]")
BANNER = "###easy### TPC-C Load Generator"
# A log pasted into markdown (a blog exported to .md) comes back with its brackets and stars
# escaped and `<` as an entity: `\\[connection]: 10`, `\\*\\*\\*`, `&lt;Raw Results2(sum ver.)>`.
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_MD_ENTITY = {"&lt;": "<", "&gt;": ">", "&amp;": "&", "&#x20;": " ", "&nbsp;": " "}
_MD_ENTITIES = re.compile("|".join(_MD_ENTITY))
_NUMERIC = {
    "connection": "threads",
    "warehouse": "warehouses",
    "rampup": "rampup",
    "measure": "measure",
    "port": "port",
}

UNITS = {"tps": "1/s", "trx": "trx", "trx_late": "trx", "lat_ms": "ms", "thds": "threads"}
for _t in OTHERS:
    UNITS.update({f"{_t}_count": "trx", f"{_t}_max_ms": "ms", f"{_t}_late": "trx", f"{_t}_p90_ms": "ms"})


def sniff(head: str) -> float:
    for line in head.splitlines()[:400]:
        if _TRX.match(line) or _RT90.match(line):
            return 0.95
    return 0.9 if BANNER in head else 0.0


def _int_of(text: str) -> int | None:
    m = re.match(r"\d{1,18}(?!\d)", text)  # a longer run is no count (and too long for int())
    return int(m.group()) if m else None


class _Reader:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.t: list[float] = []
        self.steps: list[tuple[float, float]] = []
        self.run_start = 0.0  # where the current run's load starts (relative seconds)
        self.last_rel = 0.0  # time of the last line of the previous runs
        self.prev_printed = 0.0
        self.run_rows = 0
        self.new_run_pending = False
        self.rampup: float | None = None
        self.threads: float = np.nan
        self.no_rampup_warned = False
        self.section = ""
        self.runs: list[TpccRun] = [TpccRun()]  # header and summary values of each run
        # per interval line: (line number, seconds since the previous line, `option i`, run number)
        self.spans: list[tuple[int, float, int | None, int]] = []

    def new_run(self) -> None:
        if self.run_rows:
            self.steps.append((self.run_start, self.last_rel))
            self.run_start = self.last_rel
        self.prev_printed, self.run_rows, self.new_run_pending = 0.0, 0, False

    def header(self, raw: str) -> None:
        if BANNER in raw or raw.startswith("MEASURING START"):
            if self.run_rows:
                self.new_run_pending = True
            if BANNER in raw:
                self.rampup, self.threads = None, np.nan
                if self.runs[-1] != TpccRun() or self.run_rows:
                    self.runs.append(TpccRun())
            return
        if m := _PARAM.match(raw):
            key, value = m.group(1).lower(), m.group(2)
            number = _int_of(value)
            run = self.runs[-1]
            if key in _NUMERIC and number is not None:
                setattr(run, _NUMERIC[key], number)  # an int field of TpccRun
                if key == "connection":
                    self.threads = float(number)
                elif key == "rampup":
                    self.rampup = float(number)
            elif key in ("server", "dbname") and value:
                if key == "server":
                    run.server = value
                else:
                    run.database = value
            return  # [pass] (the password) and [user] are not kept
        if m := _RAMPUP.search(raw):
            if self.rampup is None:
                self.rampup = float(m.group(1))
                self.runs[-1].rampup = int(m.group(1))
        elif m := _OPTION_I.match(raw.strip()):
            self.runs[-1].interval = int(m.group(1))

    def summary(self, raw: str) -> None:
        run = self.runs[-1]
        if self.section == "<Raw Results>" and (m := _RAW.match(raw)):
            i = int(m.group(1))
            if i < len(TYPES):
                sc, lt, rt, fl = (int(g) for g in m.groups()[1:])
                run.raw_results[TYPES[i]] = {"sc": sc, "lt": lt, "rt": rt, "fl": fl}
        elif self.section == "<Raw Results>" and (m := _MEASURED.match(raw)):
            run.measured_s = float(m.group(1))
        elif self.section.startswith("<Constraint Check>") and (m := _CHECK.search(raw)):
            run.constraints_ok = run.constraints_ok is not False and m.group(1) == "OK"
        elif self.section == "<TpmC>" and (m := _TPMC.match(raw)):
            run.tpmc = float(m.group(1))
            self.ctx.note_variant("TpmC summary")

    def interval(self, line_no: int, printed: float) -> tuple[float, float] | None:
        """(relative time, interval) of an interval line, or None when it cannot be placed."""
        if self.new_run_pending or (self.run_rows and printed <= self.prev_printed):
            self.new_run()
        if self.rampup is None and not self.no_rampup_warned:
            self.ctx.warn(
                line_no,
                "no ramp-up line before the first report: times taken as printed (from MEASURING START)",
                kind="time",
            )
            self.no_rampup_warned = True
        rel = self.run_start + (self.rampup or 0.0) + printed
        interval = printed - self.prev_printed
        if interval <= 0:
            self.ctx.warn(line_no, f"interval line at {printed:g} s has no length: skipped", kind="time")
            return None
        self.prev_printed, self.last_rel = printed, rel
        self.run_rows += 1
        self.spans.append((line_no, interval, self.runs[-1].interval, len(self.steps)))
        return rel, interval

    def line(self, line_no: int, raw: str) -> None:
        if "\\" in raw or "&" in raw:
            plain = _MD_ENTITIES.sub(lambda e: _MD_ENTITY[e.group()], _MD_ESCAPE.sub(r"\1", raw))
            if plain != raw:
                self.ctx.note_variant("pasted into markdown (\\[ \\* &lt; unescaped)")
                raw = plain
        m = _TRX.match(raw) or _RT90.match(raw)
        if m is not None and np.isfinite(float(m.group(1))):  # `1e400` seconds: no place in time
            placed = self.interval(line_no, float(m.group(1)))
            if placed is not None:
                self.ctx.note_variant(_variant(m))
                self.row(_values(m, placed[1]), placed[0])
            return
        stripped = raw.strip()
        if _LOOKS.match(raw):
            if self.ctx.room():
                self.ctx.warn(line_no, f"unreadable interval line: {stripped[:80]!r}", kind="unreadable")
        elif BANNER in raw or stripped.startswith(("MEASURING START", "RAMP-UP TIME")):
            self.section = ""
            self.header(stripped)
        elif stripped.startswith("<"):  # <Parameters> opens the header, the others the summary
            self.section = "" if stripped.startswith("<Parameters>") else stripped
        elif self.section:
            self.summary(raw)
        else:
            self.header(raw)

    def per_interval(self) -> None:
        """Counts are per report interval (the alarm's), so tps = trx / the interval, never over the
        time since the previous line: a log with elided lines (`  20, …` then `3600, …`) would give
        308 / 3580 s. The interval is `option i` when printed, else the shortest step of the run
        (the first line's time counts: the timer starts at 0). Longer steps are warned."""
        runs: dict[int, float] = {}
        for _, step, option, run in self.spans:
            runs[run] = float(option) if option else min(runs.get(run, np.inf), step)
        tps = self.rows[("tps", "")]
        for k, (line_no, step, _, run) in enumerate(self.spans):
            interval = runs[run]
            tps[k] = self.rows[("trx", "")][k] / interval
            if step > 1.5 * interval and self.ctx.room():
                self.ctx.warn(
                    line_no,
                    f"{step:g} s since the previous report, whose interval is {interval:g} s: "
                    f"about {round(step / interval) - 1} report(s) missing (elided or lost lines); "
                    "rates are per interval",
                    kind="time",
                )

    def row(self, values: dict[tuple[str, str], float], rel: float) -> None:
        values[("thds", "")] = self.threads
        append_row(self.rows, len(self.t), values)
        self.t.append(rel)


def _f(text: str | None) -> float:
    return np.nan if text is None else float(text)


def _rt(text: str | None, count: float) -> float:
    """A response time; tpcc_start prints 0.000 when nothing completed in the interval: no sample."""
    return np.nan if count == 0 else _f(text)


def _values(m: re.Match[str], interval: float) -> dict[tuple[str, str], float]:
    g = m.groups()
    trx = float(g[1])
    values = {("trx", ""): trx, ("tps", ""): trx / interval}
    if m.re is _TRX:
        values.update({("lat_ms", "95"): _rt(g[2], trx), ("lat_ms", "99"): _rt(g[3], trx)})
        values[("lat_ms", "max")] = _rt(g[4], trx)
        for k, kind in enumerate(OTHERS):
            count = float(g[5 + 2 * k])
            values[(f"{kind}_count", "")] = count
            values[(f"{kind}_max_ms", "")] = _rt(g[6 + 2 * k], count)
        return values
    values[("trx_late", "")] = float(g[2])
    values[("lat_ms", "90")] = _rt(g[3], trx)
    values[("lat_ms", "max")] = _rt(g[4], trx)
    for k, kind in enumerate(OTHERS, start=1):
        count = float(g[1 + 4 * k])
        values[(f"{kind}_count", "")] = count
        values[(f"{kind}_late", "")] = float(g[2 + 4 * k])
        values[(f"{kind}_p90_ms", "")] = _rt(g[3 + 4 * k], count)
        values[(f"{kind}_max_ms", "")] = _rt(g[4 + 4 * k], count)
    return values


def _variant(m: re.Match[str]) -> str:
    if m.re is _TRX:
        return "trx layout (95%/99%/max_rt)"
    return "rt90 layout (count(late):rt90|max)" if m.group(5) is not None else "rt90 layout (count(late):rt90)"


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    r = _Reader(ctx)
    line_no = 0
    for data in chunks:
        for raw in text_lines(data):
            line_no += 1
            r.line(line_no, raw)
    ctx.meta.tpcc_runs = [run for run in r.runs if run != TpccRun()]
    if not r.t:
        if line_no:
            ctx.warn(None, "no tpcc interval lines found", kind="format")
        return
    r.per_interval()
    r.steps.append((r.run_start, r.last_rel))
    if len(r.steps) > 1:
        ctx.note_variant(f"{len(r.steps)} runs in one log (step load)")
    if r.rampup is not None:
        ctx.note_variant("times = ramp-up + printed time (tpcc_start counts from MEASURING START)")
    ctx.meta.timing = Timing.RELATIVE
    ctx.meta.log_runs = r.steps
    ctx.meta.last_relative = r.last_rel
    times = ctx.clock.relative(np.array(r.t))
    by_entity: dict[str, dict[str, np.ndarray]] = {}
    for (metric, entity), col in r.rows.items():
        v = np.array(col, dtype=np.float64)
        if np.isnan(v).all():
            continue
        by_entity.setdefault(entity, {})[metric] = v
        ctx.units[metric] = UNITS.get(metric, "")
    for entity, values in by_entity.items():
        yield Block(entity, times, values)
