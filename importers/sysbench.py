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
  each run is placed right after the previous one, never overlapping;
- `fileio` interval reports (`reads: 83.05 MiB/s writes: 55.37 MiB/s fsyncs: 353.35/s`) and the
  report_csv hook's lines;
- logs of run summaries only (no --report-interval): one point per run at its end, the run's
  totals (see _sysbench_summary; `cpu`'s events/s, `memory`'s operations/s and MiB/s);
- PerfKitBenchmarker's one run per CPU, `CPU N ` before each run's banner (`CPU 0 sysbench 1.0.11
  (...)`): runs placed one after the other, the CPUs named in the variant.

Metrics: `tps` (the benchmark's throughput, whatever the tool), `qps`, `r/s`, `w/s`, `o/s`,
`err/s`, `reconn/s` (1/s), `memMiB/s` (memory test summaries, MiB/s), `thds` (threads), `lat_ms`
(ms) with the percentile as entity (`95`, or `avg`/`max` when sysbench was asked for those).
Entity "" for the others. An interval in which no event completed (every rate 0: a stall) has no
latency (NaN), where sysbench prints 0.00.
Times are seconds since the benchmark started: the folder's clock places them (see app/ingest.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._sysbench_summary import Summaries
from benchlens.importers._text import text_lines
from benchlens.importers._types import Block, Context, Timing, append_row

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
# columns that do not count completed events: an interval whose other rates are all 0 completed none
_NOT_EVENTS = frozenset({"thds", "err/s", "reconn/s"})
_CSV_GROUPS = ("tps", "qps", "r", "w", "o", "lat", "err", "reconn")
_REPORT = re.compile(r"^\[\s*\d+(?:\.\d+)?s\s*\]\s+(?:thds|threads):", re.M)
_FILEIO = (
    re.compile(  # fileio: `[ 1s ] reads: 83.05 MiB/s writes: 55.37 MiB/s fsyncs: 353.35/s latency (ms,95%): 0.013`
        rf"^\[\s*(?P<t>\d+(?:\.\d+)?)s\s*\]\s+reads:\s*(?P<r>{_N}) MiB/s\s+writes:\s*(?P<w>{_N}) MiB/s"
        rf"\s+fsyncs:\s*(?P<f>{_N})/s\s+latency\s+\(ms,(?P<pct>[^)]+?)%?\):\s*(?P<lat>{_N})",
        re.M,
    )
)
# sysbench.report_csv (a Lua hook; 1.0 has no option for it): time,threads,tps,qps,r,w,o,latency,err/s,reconn/s
_CSV = re.compile(rf"^(?P<t>\d+),(?P<thds>\d+),{','.join(f'(?P<{g}>{_N})' for g in _CSV_GROUPS)}\s*$", re.M)
_SUMMARY = re.compile(
    r"^(?:General statistics:|Test execution summary:|\s+transactions:\s+\d+\s+\(|\s+events per second:)", re.M
)
# PerfKitBenchmarker runs one sysbench per CPU, `echo -n "CPU $CPU "; taskset --cpu-list $CPU
# sysbench memory run`: each run's banner comes after that prefix (`CPU 0 sysbench 1.0.11 (...)`).
_VERSION = re.compile(r"^(?:CPU (\d{1,5}) )?sysbench (\d+\.\d+(?:\.\d+)?)", re.M)
UNITS = {
    "tps": "1/s",
    "qps": "1/s",
    "r/s": "1/s",
    "w/s": "1/s",
    "o/s": "1/s",
    "err/s": "1/s",
    "reconn/s": "1/s",
    "fsyncs/s": "1/s",
    "rMiB/s": "MiB/s",
    "wMiB/s": "MiB/s",
    "memMiB/s": "MiB/s",
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
FILEIO_COLUMNS = {"r": "rMiB/s", "w": "wMiB/s", "f": "fsyncs/s"}
_VARIANTS = {"1.0": "sysbench 1.0+", "0.5": "sysbench 0.5", "eps": "sysbench 1.0+ events/s (eps)"}
_VARIANTS.update({"fileio": "fileio interval reports", "csv": "CSV interval reports (report_csv)"})


_SUMMARY_HEADS = ("SQL statistics:", "OLTP test statistics:", "General statistics:", "Test execution summary:")


def sniff(head: str) -> float:
    """A sysbench log: its banner near the top, or report lines from the first line (a log cut at
    the front) or making up most of the text. A document that quotes a few report lines in its
    prose (a MANIFEST, a blog post draft) is not a log."""
    reports = len(_REPORT.findall(head))
    lines = [line for line in head.splitlines() if line.strip()]
    banner = bool(lines) and _VERSION.search("\n".join(lines[:10])) is not None
    if not reports:  # its own banner: fileio or CSV reports, or a log of summaries only
        other = _FILEIO.search(head) or _CSV.search(head) or _SUMMARY.search(head)
        # or a summary cut from a log (`sed -n '/^SQL statistics/,$p'`): from its first line on
        cut = bool(lines) and lines[0].strip() in _SUMMARY_HEADS and _SUMMARY.search(head) is not None
        return 0.9 if (banner and other) or cut else 0.0
    return 0.95 if banner or _REPORT.match(lines[0]) or 2 * reports >= len(lines) else 0.0


class _Log:
    """The interval reports of a log (any layout) and the summaries of its runs."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rows: dict[tuple[str, str], list[float]] = {}
        self.t: list[float] = []
        self.segment_start, self.last_t = 0.0, -1.0
        self.steps: list[tuple[float, float]] = []  # the runs of this log (a step load)
        self.summaries = Summaries()
        self.text = False
        self.pinned: list[int] = []  # the CPU each run was pinned to (PerfKitBenchmarker), in order
        self.fatal: tuple[int, str, float] | None = None  # the first FATAL line, and the time reached

    def line(self, no: int, raw: str) -> None:
        self.text = self.text or bool(raw.strip())
        if raw.startswith("["):
            m = _V1.match(raw) or _V05.match(raw) or _EPS.match(raw) or _FILEIO.match(raw)
        else:
            m = _CSV.match(raw)
            if m is None and raw.startswith("FATAL:") and self.fatal is None:
                # a thread died on an error: sysbench stops there, before the time it was given
                self.fatal = (no, raw.strip()[:200], self.last_t)
            if m is None:
                v = _VERSION.match(raw)
                if v and self.ctx.meta.tool_version is None:
                    self.ctx.meta.tool_version = f"sysbench {v.group(2)}"
                if v and v.group(1) is not None:
                    self.pinned.append(int(v.group(1)))
                self.summaries.feed(no, raw)
                return
        if m is None or not np.isfinite(float(m["t"])):  # `[ 1e400s ]` has no place in time
            if _REPORT.match(raw):
                self.ctx.warn(no, f"unreadable report line: {raw[:80]!r}", kind="unreadable")
            return
        self.report(m)

    def report(self, m: re.Match[str]) -> None:
        t = float(m["t"])
        if t <= self.last_t - self.segment_start:  # a new run in the same log (step load): place it after
            self.steps.append((self.segment_start, self.last_t))
            self.segment_start = self.last_t  # its t = 0 is the end of the previous run's last report
        self.last_t = self.segment_start + t
        groups = m.groupdict()
        columns = FILEIO_COLUMNS if m.re is _FILEIO else COLUMNS
        values = {(metric, ""): float(groups[g]) for g, metric in columns.items() if groups.get(g) is not None}
        pct = groups["pct"].strip() if groups.get("pct") else "csv"  # CSV: the summary's percentile, below
        rates = [v for (metric, _), v in values.items() if metric not in _NOT_EVENTS]
        if rates and not any(rates):
            # no event completed in the interval (a stall): sysbench prints its empty histogram's
            # 0.00, which is no latency at all, not a latency of 0 ms
            values[("lat_ms", pct)] = np.nan
            self.ctx.note_variant("intervals without a completed event: no latency (sysbench prints 0.00)")
        else:
            values[("lat_ms", pct)] = float(m["lat"])
        append_row(self.rows, len(self.t), values)
        self.t.append(self.last_t)
        key = {_V1: "1.0", _V05: "0.5", _EPS: "eps", _FILEIO: "fileio", _CSV: "csv"}[m.re]
        self.ctx.note_variant(_VARIANTS[key])

    def totals(self) -> None:
        """A log without interval reports: each run's summary as one point at the run's end."""
        self.summaries.close()
        for run in self.summaries.runs:
            start = self.last_t if self.t else 0.0
            end = start + (run.seconds or 0.0)
            if self.t:
                self.steps.append((self.segment_start, self.last_t))
            self.segment_start = start
            append_row(self.rows, len(self.t), run.values)
            self.t.append(end)
            self.last_t = end
        if self.t:
            self.ctx.note_variant("summary only: one point per run (the run's totals)")


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    log = _Log(ctx)
    line_no = 0
    for data in chunks:
        for raw in text_lines(data):
            line_no += 1
            log.line(line_no, raw)
    if not log.t:
        log.totals()
        for no in log.summaries.bad_times:
            ctx.warn(no, "run summary's total time is no number of seconds: run skipped", kind="unreadable")
    if log.fatal is not None:
        no, text, reached = log.fatal
        ctx.warn(
            no, f"the benchmark stopped on an error after {max(reached, 0.0):g} s of reports: {text}", kind="other"
        )
    if not log.t:
        if log.text and not ctx.warnings:  # say why nothing was read
            ctx.warn(
                None,
                "no sysbench report lines (`[ 1s ] thds: ...`, --report-interval) or run summaries found",
                kind="format",
            )
        return
    log.steps.append((log.segment_start, log.last_t))
    if log.pinned:
        cpus = ", ".join(map(str, log.pinned))
        ctx.note_variant(f"one run per CPU, run after run (PerfKitBenchmarker's `CPU N ` prefix): CPU {cpus}")
    if len(log.steps) > 1:
        ctx.note_variant(f"{len(log.steps)} runs in one log (step load)")
    ctx.meta.timing = Timing.RELATIVE
    ctx.meta.log_runs = log.steps
    ctx.meta.last_relative = log.last_t
    times = ctx.clock.relative(np.array(log.t))
    percentile = log.summaries.percentile() or "95"
    blocks: dict[str, dict[str, np.ndarray]] = {}
    for (metric, entity), column in log.rows.items():
        v = np.array(column)
        if not np.isnan(v).all():
            blocks.setdefault(percentile if entity == "csv" else entity, {})[metric] = v
            ctx.units[metric] = UNITS[metric]
    for entity, values in blocks.items():
        yield Block(entity, times, values)


def summary_copies(logs: dict[str, str]) -> dict[str, str]:
    """Logs of run summaries only that repeat the summary a log of interval reports ends with
    (sysbench prints one after its reports): the same run twice, e.g. its output and the summary
    cut from it. {copy: the log with the run's reports}. The copy's one point would sit beside the
    run's last report as a false sample (the run's average); logs of other runs (other totals)
    are not copies."""
    read = {name: _run_summaries(text) for name, text in logs.items()}
    copies: dict[str, str] = {}
    for name, (reports, runs) in read.items():
        if reports or not runs:
            continue
        source = next((o for o, (r, theirs) in read.items() if r and runs <= theirs), None)
        if source is not None:
            copies[name] = source
    return copies


def _run_summaries(text: str) -> tuple[bool, set[tuple[float | None, frozenset[tuple[tuple[str, str], float]]]]]:
    """Whether a log has interval reports, and its runs' totals (the thread count left out: a
    summary cut from a log lacks the run's header)."""
    summaries = Summaries()
    reports = False
    for no, line in enumerate(text.splitlines(), 1):
        if line.startswith("[") or _CSV.match(line):
            reports = True
        else:
            summaries.feed(no, line)
    summaries.close()
    runs = {(run.seconds, frozenset((k, v) for k, v in run.values.items() if k[0] != "thds")) for run in summaries.runs}
    return reports, runs
