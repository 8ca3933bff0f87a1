"""The final summary sysbench prints after each run (0.4, 0.5, 1.0), read as the run's totals.

    Number of threads: 2                                  (the run's header)
        transactions:                        6733   (1345.81 per sec.)
        queries:                             107728 (21532.89 per sec.)      (1.0; 0.4/0.5: read/write requests)
        ignored errors:                      0      (0.00 per sec.)          (0.4: deadlocks)
        reconnects:                          0      (0.00 per sec.)
        events per second:  2107.11                                          (cpu test)
    Total operations: 38946823 (3894455.31 per second)                    (memory test)
    38034.01 MiB transferred (3803.18 MiB/sec)                              (memory test)
        reads/s: 3458.10  writes/s: 2305.40  fsyncs/s: 230.87                (fileio)
        read, MiB/s: 54.03  written, MiB/s: 36.02                            (fileio)
        total time:                          5.0021s
    Latency (ms): min: 0.87 avg: 1.48 max: 37.99 95th percentile: 2.35     (1.0)
    per-request statistics / response time: min: 2.54ms ... approx.  95 percentile: 15.91ms   (0.4 / 0.5)

A run is one point (importers/sysbench.py places it at the run's end): {(metric, entity): value}
with the metrics of the interval reports (`tps`, `qps`, `err/s`, `reconn/s`, `thds`, `lat_ms`
with entity `min`/`avg`/`max`/the percentile, fileio's `r/s`, `w/s`, `fsyncs/s`, `rMiB/s`,
`wMiB/s`; memory's operations per second as `tps` and its transfer rate as `memMiB/s`), and how
long it ran.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

_N = r"\d+(?:\.\d+)?(?![\d.eE])"
_THREADS = re.compile(r"^Number of threads:\s*(\d+)\s*$")
_PER_SEC = re.compile(rf"^\s+(transactions|queries|ignored errors|deadlocks|reconnects):\s+\d+\s+\(({_N}) per sec\.\)")
_VALUE = re.compile(rf"^\s+(events per second|reads/s|writes/s|fsyncs/s|read, MiB/s|written, MiB/s):\s+({_N})\s*$")
_OPERATIONS = re.compile(rf"^Total operations:\s+\d+\s+\(({_N}) per second\)\s*$")
_TRANSFERRED = re.compile(rf"^{_N} MiB transferred \(({_N}) MiB/sec\)\s*$")
_TIME = re.compile(rf"^\s+total time:\s+({_N})s\s*$")
_LATENCY = re.compile(rf"^\s+(min|avg|max|approx\.\s+({_N}) percentile|({_N})th percentile):\s+({_N})(ms)?\s*$")
METRICS = {
    "transactions": "tps",
    "events per second": "tps",
    "queries": "qps",
    "ignored errors": "err/s",
    "deadlocks": "err/s",  # 0.4 retried deadlocks only: what later versions count as ignored errors
    "reconnects": "reconn/s",
    "reads/s": "r/s",
    "writes/s": "w/s",
    "fsyncs/s": "fsyncs/s",
    "read, MiB/s": "rMiB/s",
    "written, MiB/s": "wMiB/s",
}


@dataclass
class RunTotals:
    values: dict[tuple[str, str], float] = field(default_factory=dict)
    seconds: float | None = None  # `total time`
    line: int = 0  # where its summary ended (for warnings)


@dataclass
class Summaries:
    """The totals of every run of a log, in order (feed every line that is no interval report)."""

    runs: list[RunTotals] = field(default_factory=list)
    current: RunTotals = field(default_factory=RunTotals)
    bad_times: list[int] = field(default_factory=list)  # lines of a `total time` no float holds

    def feed(self, no: int, line: str) -> bool:
        """True when the line was one of a summary's (or a run header's) lines."""
        if m := _THREADS.match(line):
            self.close()
            self.current.values[("thds", "")] = float(m.group(1))
        elif (m := _PER_SEC.match(line)) or (m := _VALUE.match(line)):
            self.current.values[(METRICS[m.group(1)], "")] = float(m.group(2))
        elif m := _OPERATIONS.match(line):
            self.current.values[("tps", "")] = float(m.group(1))
        elif m := _TRANSFERRED.match(line):
            self.current.values[("memMiB/s", "")] = float(m.group(1))
        elif m := _TIME.match(line):
            seconds = float(m.group(1))
            if math.isfinite(seconds):
                self.current.seconds = seconds
            else:  # `1e400s`: no run ends there (the run, left without a time, is not kept)
                self.bad_times.append(no)
        elif m := _LATENCY.match(line):
            entity = m.group(2) or m.group(3) or m.group(1)
            self.current.values[("lat_ms", entity)] = float(m.group(4))
        else:
            return False
        self.current.line = no
        return True

    def close(self) -> None:
        """The run read so far is complete (a new run header, or the end of the log)."""
        if self.current.seconds is not None and len(self.current.values) > 1:
            self.runs.append(self.current)
        self.current = RunTotals()

    def percentile(self) -> str | None:
        """The latency percentile the summaries print (`95`, `99`), for the CSV reports' latency."""
        for run in self.runs:
            for metric, entity in run.values:
                if metric == "lat_ms" and entity not in ("min", "avg", "max"):
                    return entity
        return None
