"""sysbench interval reports (`--report-interval=N`): sysbench 1.0+ and 0.5.

Variants covered (fixtures in tests/fixtures/sysbench and the demo runs in resources/demo):
- 1.0+: `[ 12s ] thds: 4 tps: 585.93 qps: 11759.59 (r/w/o: 8237.01/2350.72/1171.86)
  lat (ms,95%): 10.27 err/s: 0.00 reconn/s: 0.00`;
- 0.5, in every layout it printed: the older `[  10s] threads: 16, tps: 5352.58, reads/s: 74949.59,
  writes/s: 21410.31 response time: 3.96ms (99%)` (some builds put a comma before `response time`),
  and the later `… reads: 16.00, writes: 4.00, response time: 12.34ms (95%), errors: 0.00,
  reconnects:  0.00` (`errors:`/`reconnects:` absent in some builds: then no such series); any percentile;
- `sysbench cpu|memory|threads`: `[ 1s ] thds: 4 eps: 2107.11 lat (ms,95%): 0.52` (eps stored as `tps`);
- several runs in one log (a step load: 1, 2, 4 ... threads): times restart at the first report;
  each run is placed right after the previous one, never overlapping.

Recognised but not read (each refused with what it is): `fileio` interval reports, and logs with the
final summary only (no --report-interval).

Metrics: `tps` (the benchmark's throughput, whatever the tool), `qps`, `r/s`, `w/s`, `o/s`,
`err/s`, `reconn/s` (1/s), `thds` (threads), `lat_ms` (ms) with the percentile as entity (`95`,
or `avg`/`max` when sysbench was asked for those). Entity "" for the others.
Times are seconds since the benchmark started: the folder's clock places them (see app/ingest.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing

name = "sysbench"

# A number as sysbench prints it (%.2f): it must end there, so "1.5e+16" or "1.2.3" is no number,
# never 1.5 or a float() error.
_N = r"\d+(?:\.\d+)?(?![\d.eE])"
_V1 = re.compile(
    rf"^\[\s*(?P<t>\d+(?:\.\d+)?)s\s*\]\s+thds:\s*(?P<thds>\d+)\s+tps:\s*(?P<tps>{_N})\s+qps:\s*(?P<qps>{_N})"
    rf"\s+\(r/w/o:\s*(?P<r>{_N})/(?P<w>{_N})/(?P<o>{_N})\)\s+lat\s+\(ms,(?P<pct>[^)]+?)%?\):\s*(?P<lat>{_N})"
    rf"\s+err/s:?\s*(?P<err>{_N})\s+reconn/s:?\s*(?P<reconn>{_N})"
)
_V05 = re.compile(  # every layout 0.5 printed over its life (see the docstring)
    rf"^\[\s*(?P<t>\d+(?:\.\d+)?)s\s*\]\s+threads:\s*(?P<thds>\d+),\s+tps:\s*(?P<tps>{_N}),"
    rf"\s+reads(?:/s)?:\s*(?P<r>{_N}),\s+writes(?:/s)?:\s*(?P<w>{_N}),?"
    rf"\s+response time:\s*(?P<lat>{_N})ms\s+\((?P<pct>[^)]+?)%?\)"
    rf"(?:,\s+errors:\s*(?P<err>{_N})(?:,\s+reconnects:\s*(?P<reconn>{_N}))?)?"
)
_EPS = re.compile(  # sysbench cpu / memory / threads tests: events per second
    rf"^\[\s*(?P<t>\d+(?:\.\d+)?)s\s*\]\s+thds:\s*(?P<thds>\d+)\s+eps:\s*(?P<tps>{_N})"
    rf"\s+lat\s+\(ms,(?P<pct>[^)]+?)%?\):\s*(?P<lat>{_N})"
)
_REPORT = re.compile(r"^\[\s*\d+(?:\.\d+)?s\s*\]\s+(?:thds|threads):", re.M)
# Outputs recognised but not read (yet), so that a refusal names what it saw
_FILEIO = re.compile(r"^\[\s*\d+(?:\.\d+)?s\s*\]\s+reads:\s*\S+ MiB/s\s+writes:", re.M)
_SUMMARY = re.compile(r"^(?:General statistics:|\s+transactions:\s+\d+ \(|\s+events per second:)", re.M)
_VERSION = re.compile(r"^sysbench (\d+\.\d+(?:\.\d+)?)", re.M)
UNITS = {
    "tps": "1/s",
    "qps": "1/s",
    "r/s": "1/s",
    "w/s": "1/s",
    "o/s": "1/s",
    "err/s": "1/s",
    "reconn/s": "1/s",
    "thds": "threads",
    "lat_ms": "ms",
}
COLUMNS = {
    "tps": "tps",
    "qps": "qps",
    "r": "r/s",
    "w": "w/s",
    "o": "o/s",
    "err": "err/s",
    "reconn": "reconn/s",
    "thds": "thds",
}


_NOTHING = {
    "": "no sysbench report lines (`[ 1s ] thds: ...`, --report-interval) found",
    "fileio": "sysbench fileio interval reports (`reads: … MiB/s writes: … fsyncs: …/s`) are not read",
    "summary": "a sysbench summary without interval reports (run without --report-interval) is not read",
}


def sniff(head: str) -> float:
    """A sysbench log: its banner near the top, or report lines from the first line (a log cut at
    the front) or making up most of the text. A document that quotes a few report lines in its
    prose (a MANIFEST, a blog post draft) is not a log."""
    reports = len(_REPORT.findall(head))
    lines = [line for line in head.splitlines() if line.strip()]
    banner = bool(lines) and _VERSION.search("\n".join(lines[:10])) is not None
    if not reports:  # its own banner: a log without interval reports, named when refused
        return 0.9 if banner and (_FILEIO.search(head) or _SUMMARY.search(head)) else 0.0
    return 0.95 if banner or _REPORT.match(lines[0]) or 2 * reports >= len(lines) else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    rows: dict[str, list[float]] = {k: [] for k in (*COLUMNS.values(), "t", "lat")}
    percentile = None
    segment_start, last_t, line_no = 0.0, -1.0, 0
    steps: list[tuple[float, float]] = []  # the runs of this log (a step load)
    text, seen = False, ""  # seen: what a log without readable reports holds instead
    for data in chunks:
        for raw in text_lines(data):
            line_no += 1
            text = text or bool(raw.strip())
            if not raw.startswith("["):
                if line_no < 5 and (m := _VERSION.match(raw)) and ctx.meta.tool_version is None:
                    ctx.meta.tool_version = f"sysbench {m.group(1)}"
                elif not seen and _SUMMARY.match(raw):
                    seen = "summary"
                continue
            if _FILEIO.match(raw):
                seen = "fileio"
                continue
            m = _V1.match(raw) or _V05.match(raw) or _EPS.match(raw)
            if m is None or not np.isfinite(float(m["t"])):  # `[ 1e400s ]` has no place in time
                if _REPORT.match(raw):
                    ctx.warn(line_no, f"unreadable report line: {raw[:80]!r}", kind="unreadable")
                continue
            t = float(m["t"])
            if t <= last_t - segment_start:  # a new run in the same log (step load): place it after
                steps.append((segment_start, last_t))
                segment_start = last_t  # its t = 0 is the end of the previous run's last report
            rows["t"].append(segment_start + t)
            last_t = segment_start + t
            for group, metric in COLUMNS.items():
                value = m.groupdict().get(group)
                rows[metric].append(float(value) if value is not None else np.nan)
            rows["lat"].append(float(m["lat"]))
            pct = m["pct"].strip()
            if percentile is None:
                percentile = pct
                ctx.note_variant(
                    {_V1: "sysbench 1.0+", _V05: "sysbench 0.5", _EPS: "sysbench 1.0+ events/s (eps)"}[m.re]
                )
    if not rows["t"]:
        if text and not ctx.warnings:  # say why nothing was read
            ctx.warn(None, _NOTHING.get(seen, _NOTHING[""]), kind="format")
        return
    steps.append((segment_start, last_t))
    if len(steps) > 1:
        ctx.note_variant(f"{len(steps)} runs in one log (step load)")
    ctx.meta.timing = Timing.RELATIVE
    ctx.meta.log_runs = steps
    ctx.meta.last_relative = last_t
    ctx.units.update(UNITS)
    times = ctx.clock.relative(np.array(rows["t"]))
    values = {m: np.array(v) for m, v in rows.items() if m not in ("t", "lat") and not np.isnan(v).all()}
    yield Block("", times, values)
    yield Block(percentile or "95", times, {"lat_ms": np.array(rows["lat"])})
