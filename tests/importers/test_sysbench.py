"""sysbench logs: both report generations, eps tests, step loads placed back to back, and the
placement of relative times on the folder clock."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np

from benchlens import importers
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES, ROOT, Series, parse_series

SB = FIXTURES / "sysbench"


def series(path: Path) -> Series:
    return parse_series(importers.by_name("sysbench"), path.read_bytes())[0]


def test_sysbench_1_0_lines_give_the_printed_values() -> None:
    s = series(SB / "sysbench_1.0.20_C_oltp-read-write.txt")
    t, tps = s[("tps", "")]
    assert len(t) == 90 and t[0] == 1.0 and t[-1] == 90.0
    assert tps[0] == 985.79 and s[("qps", "")][1][0] == 19789.62
    assert s[("r/s", "")][1][0] == 13856.92 and s[("w/s", "")][1][0] == 3957.13 and s[("o/s", "")][1][0] == 1975.57
    assert s[("lat_ms", "95")][1][0] == 8.13 and s[("thds", "")][1][0] == 4


def test_an_interval_without_a_completed_transaction_has_no_latency() -> None:
    """A real InnoDB flushing stall (bench/drop_quality/runs/flushing-short-writes/bench.log): 11
    reports of `tps: 0.00 qps: 0.00 ... lat (ms,95%): 0.00`. The 0.00 is sysbench's empty histogram:
    the latency panel dropped to 0 ms exactly while every session waited. No latency there (a gap);
    every other report keeps its printed value."""
    path = SB / "sysbench_1.0.20_C_oltp-update-non-index-stalls.txt"
    s = series(path)
    printed = [
        (
            float(line.split("tps: ")[1].split()[0]),
            float(line.split("qps: ")[1].split()[0]),
            float(line.split("%): ")[1].split()[0]),
        )
        for line in path.read_text().splitlines()
        if line.startswith("[ ")
    ]
    lat = s[("lat_ms", "95")][1]
    assert len(lat) == len(printed) == 75
    stalled = [tps == 0 and qps == 0 for tps, qps, _ in printed]
    assert sum(stalled) == 11
    assert np.isnan(lat[stalled]).all()
    assert lat[~np.array(stalled)].tolist() == [lt for (_, _, lt), st in zip(printed, stalled, strict=True) if not st]
    assert (s[("tps", "")][1][stalled] == 0).all()  # the throughput keeps its zeros: the stall is real


def test_sysbench_0_5_lines() -> None:
    s = series(SB / "sysbench_0.5_C_oltp-handwritten.txt")
    assert list(s[("tps", "")][1]) == [1234.56, 1198.10, 612.30, 1240.00]
    assert list(s[("tps", "")][0]) == [10.0, 20.0, 30.0, 40.0]
    assert s[("lat_ms", "95")][1][2] == 45.88 and s[("err/s", "")][1][2] == 0.10
    assert ("o/s", "") not in s  # 0.5 prints no 'other' column


def test_sysbench_0_5_reads_per_s_layouts() -> None:
    """0.5's older `reads/s: … writes/s:` lines, with or without the comma before `response time`,
    any percentile, with or without `errors:`/`reconnects:` (issue 13: read as nothing at all)."""
    s = series(SB / "sysbench_0.5_C_reads-per-s-no-comma-99pct-handwritten.txt")
    assert list(s[("tps", "")][0]) == [10.0, 20.0, 30.0, 40.0]
    assert list(s[("tps", "")][1]) == [5312.40, 5298.10, 2120.40, 5360.08]
    assert s[("r/s", "")][1][0] == 74373.60 and s[("w/s", "")][1][3] == 21440.63
    assert list(s[("lat_ms", "99")][1]) == [3.96, 4.09, 18.61, 4.10] and list(s[("thds", "")][1]) == [16] * 4
    assert ("err/s", "") not in s and ("reconn/s", "") not in s  # not printed: no series, not zeros
    s = series(SB / "sysbench_0.5_C_reads-per-s-comma-select-only-handwritten.txt")
    assert list(s[("r/s", "")][1]) == [2744.10, 2790.55, 2412.80, 2810.00]
    assert list(s[("tps", "")][1]) == [0.0] * 4 and s[("lat_ms", "95")][1][0] == 6.02
    s = series(SB / "sysbench_0.5_C_reads-no-errors-handwritten.txt")
    assert list(s[("w/s", "")][1]) == [903.60, 871.30, 970.55] and s[("lat_ms", "95")][1][1] == 80.42


def test_sysbench_0_5_line_variants() -> None:
    """Every spelling 0.5 printed, one line each: reads/s or reads, comma or not, errors alone or
    with reconnects, a fractional percentile."""
    lines = [
        "[  10s] threads: 4, tps: 10.00, reads/s: 140.00, writes/s: 40.00, response time: 5.00ms (95%)",
        "[  20s] threads: 4, tps: 11.00, reads/s: 154.00, writes/s: 44.00 response time: 6.00ms (95%)",
        "[  30s] threads: 4, tps: 12.00, reads: 168.00, writes: 48.00, response time: 7.00ms (95%), errors: 0.50",
        "[  40s] threads: 4, tps: 13.00, reads: 182.00, writes: 52.00, response time: 8.00ms (95%), errors: 0.00, "
        "reconnects:  1.00",
    ]
    s = parse_series(importers.by_name("sysbench"), ("\n".join(lines) + "\n").encode())[0]
    assert list(s[("tps", "")][1]) == [10.0, 11.0, 12.0, 13.0]
    assert list(s[("lat_ms", "95")][1]) == [5.0, 6.0, 7.0, 8.0]
    err = s[("err/s", "")][1]
    assert np.isnan(err[:2]).all() and list(err[2:]) == [0.5, 0.0]
    s = parse_series(importers.by_name("sysbench"), (lines[0].replace("(95%)", "(99.9%)") + "\n").encode())[0]
    assert ("lat_ms", "99.9") in s


def test_step_load_runs_are_placed_one_after_the_other() -> None:
    s = series(SB / "sysbench_1.0.20_C_cpu-step-load.txt")
    t, tps = s[("tps", "")]
    assert np.all(np.diff(t) > 0), "runs must never overlap"
    assert list(s[("thds", "")][1]) == [1, 1, 2, 2, 1]
    assert list(tps) == [2107.11, 2184.53, 4070.72, 4144.71, 4173.10]
    assert t[2] == t[1] + 1  # the second run's [1s] report follows the first run's last


def _write_relative_log(folder: Path) -> None:
    """A sysbench log without absolute times, five reports as long as the captures' busy phase."""
    lines = [
        f"[ {k}s ] thds: 4 tps: {100 + k}.00 qps: 1.00 (r/w/o: 1.00/0.00/0.00) lat (ms,95%): 1.00 err/s: 0.00 "
        "reconn/s: 0.00"
        for k in range(1, 6)
    ]
    (folder / "sysbench.log").write_text("\n".join(lines) + "\n")


def test_relative_log_is_placed_at_the_load_onset(tmp_path: Path) -> None:
    """A run folder whose sysbench.log has no absolute time: its t=0 is where CPU busy rises."""
    folder = tmp_path / "run"
    shutil.copytree(FIXTURES / "runs" / "c_basic", folder)
    _write_relative_log(folder)
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        src = next(s for s in rep.sources if s.format == "sysbench")
        assert "load onset" in src.clock
        run = lib.run(rep.id)
        info = next(s for s in lib.series(rep.id) if s.metric == "tps")
        t, _ = lib.load(info)
        vm = next(s for s in lib.series(rep.id) if s.format == "vmstat" and s.metric == "us")
        vt, us = lib.load(vm)
        first_busy = vt[np.argmax(us > us[0] + 5)]
        assert first_busy - 1 <= t[0] - 1 <= first_busy  # t=0 falls in the first busy sample's interval
        assert run.bench_start == t[0] - 1 and run.bench_end == t[-1]  # the first report is [ 1s ]


def test_relative_log_is_placed_at_the_load_onset_of_iostat_avg_cpu(tmp_path: Path) -> None:
    """Issue 13: with iostat as the folder's only CPU source the log went to its modification time;
    iostat's avg-cpu block (100 - %idle) shows the onset as well."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(FIXTURES / "runs" / "c_basic" / "iostat.log", folder / "iostat.log")  # real capture
    _write_relative_log(folder)
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        src = next(s for s in rep.sources if s.format == "sysbench")
        assert "load onset seen in iostat avg-cpu 100-%idle" in src.clock
        t, _ = lib.load(next(s for s in lib.series(rep.id) if s.metric == "tps"))
        idle = next(s for s in lib.series(rep.id) if s.format == "iostat" and s.metric == "%idle" and not s.entity)
        it, iv = lib.load(idle)
        busy = 100 - iv
        first_busy = it[np.argmax(busy > busy[0] + 5)]
        assert first_busy - 1 <= t[0] - 1 <= first_busy


def test_relative_log_without_monitors_uses_its_modification_time(tmp_path: Path) -> None:
    folder = tmp_path / "only-log"
    folder.mkdir()
    log = folder / "sysbench.log"
    shutil.copy(SB / "sysbench_1.0.20_C_oltp-read-write.txt", log)
    os.utime(log, (1_800_000_000, 1_800_000_000))
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder)
        assert "modification time" in rep.sources[0].clock
        info = next(s for s in lib.series(rep.id) if s.metric == "tps")
        assert info.end == 1_800_000_000 and info.start == 1_800_000_000 - 89


def test_a_document_quoting_report_lines_is_not_a_log() -> None:
    # resources/demo/MANIFEST.md quotes real report lines in its prose; `import resources/demo/*`
    # took it for a sysbench run
    manifest = (ROOT / "resources" / "demo" / "MANIFEST.md").read_text()
    assert "] thds: 4 tps:" in manifest
    assert importers.detect(manifest[:65536]) is None
    log = (FIXTURES / "runs" / "recorded_mariadb_oltp" / "bench.log").read_text()
    reports = "".join(line for line in log.splitlines(keepends=True) if line.startswith("[ "))
    assert importers.detect(log) is importers.by_name("sysbench")  # banner on top
    assert importers.detect(reports[reports.index("[ 3s ]") :]) is importers.by_name("sysbench")  # cut at the front


def _numbers_after(text: str, label: str) -> list[float]:
    """Naive reading: the number after `label` on every line that holds it (a `(X per sec.)` rate
    when the line has one)."""
    out = []
    for line in text.splitlines():
        if label in line:
            rest = line.split(label, 1)[1]
            rest = rest.split("(", 1)[1] if "per sec." in rest else rest
            out.append(float(rest.split()[0].rstrip("s").removesuffix("ms")))
    return out


def test_summary_only_logs_are_one_point_per_run() -> None:
    """Issue 13: a log without --report-interval was refused. Each run's totals are one point at
    the run's end (real 1.0.20 captures), checked against a naive reading of the summary."""
    path = SB / "sysbench_1.0.20_C_oltp-read-only-summary-only-step-load-99pct.txt"
    text = path.read_text()
    s, ctx = parse_series(importers.by_name("sysbench"), path.read_bytes())
    ends = np.cumsum(_numbers_after(text, "total time:"))
    assert np.allclose(s[("tps", "")][0], ends) and len(ends) == 3
    assert list(s[("tps", "")][1]) == _numbers_after(text, "transactions:")
    assert list(s[("qps", "")][1]) == _numbers_after(text, "queries: ")
    assert list(s[("lat_ms", "99")][1]) == _numbers_after(text, "99th percentile:")
    assert list(s[("lat_ms", "avg")][1]) == _numbers_after(text, "avg:")
    assert list(s[("thds", "")][1]) == [1, 2, 4]
    assert len(ctx.meta.log_runs) == 3 and ctx.meta.log_runs[-1][1] == ends[-1]
    s, _ = parse_series(importers.by_name("sysbench"), (SB / "sysbench_1.0.20_C_cpu-summary-only.txt").read_bytes())
    assert list(s[("tps", "")][1]) == [6662.34] and list(s[("lat_ms", "95")][1]) == [0.04]


# 0.4's summary as the public logs print it (layout of sysbench 0.4.12's OLTP summary; numbers
# invented, near the published ones): `approx.  95 percentile`, values with `ms`, deadlocks
SUMMARY_04 = b"""sysbench 0.4.12:  multi-threaded system evaluation benchmark

Running the test with following options:
Number of threads: 16

Doing OLTP test.
Threads started!
Time limit exceeded, exiting...
Done.

OLTP test statistics:
    queries performed:
        read:                            1400308
        write:                           500110
        other:                           200044
        total:                           2100462
    transactions:                        100022 (1666.81 per sec.)
    deadlocks:                           0      (0.00 per sec.)
    read/write requests:                 1900418 (31669.39 per sec.)
    other operations:                    200044 (3333.63 per sec.)

Test execution summary:
    total time:                          60.0081s
    total number of events:              100022
    total time taken by event execution: 959.3938
    per-request statistics:
         min:                                  2.54ms
         avg:                                  9.59ms
         max:                                 93.48ms
         approx.  95 percentile:              15.91ms
"""


def test_sysbench_0_4_summary() -> None:
    sb = importers.by_name("sysbench")
    assert importers.detect(SUMMARY_04.decode()) is sb
    s, _ = parse_series(sb, SUMMARY_04)
    assert list(s[("tps", "")][0]) == [60.0081] and list(s[("tps", "")][1]) == [1666.81]
    assert list(s[("lat_ms", "95")][1]) == [15.91] and list(s[("lat_ms", "max")][1]) == [93.48]
    assert list(s[("err/s", "")][1]) == [0.0] and list(s[("thds", "")][1]) == [16]


def test_report_csv_and_fileio_interval_reports() -> None:
    """Issue 13: `sysbench.report_csv` lines and fileio reports are interval series (real 1.0.20)."""
    path = SB / "sysbench_1.0.20_C_oltp-read-only-report-csv.txt"
    rows = [line.split(",") for line in path.read_text().splitlines() if line[:1].isdigit() and "," in line]
    s, _ = parse_series(importers.by_name("sysbench"), path.read_bytes())
    names = ["t", "thds", "tps", "qps", "r/s", "w/s", "o/s", "lat", "err/s", "reconn/s"]
    for k, metric in enumerate(names[1:], start=1):
        key = ("lat_ms", "95") if metric == "lat" else (metric, "")
        assert list(s[key][1]) == [float(r[k]) for r in rows], metric
    assert list(s[("tps", "")][0]) == [float(r[0]) for r in rows]
    path = SB / "sysbench_1.0.20_C_fileio-rndrw-report-interval.txt"
    lines = [line.split() for line in path.read_text().splitlines() if line.startswith("[")]
    s, ctx = parse_series(importers.by_name("sysbench"), path.read_bytes())
    assert list(s[("rMiB/s", "")][1]) == [float(w[4]) for w in lines]
    assert list(s[("wMiB/s", "")][1]) == [float(w[7]) for w in lines]
    assert list(s[("fsyncs/s", "")][1]) == [float(w[10].removesuffix("/s")) for w in lines]
    assert list(s[("lat_ms", "95")][1]) == [float(w[-1]) for w in lines]
    assert ctx.units["rMiB/s"] == "MiB/s" and ("r/s", "") not in s  # the summary is not mixed in


def test_summary_only_step_load_gives_the_steps_table(tmp_path: Path) -> None:
    """The one-point runs feed the load-step table like interval reports do."""
    from benchlens.app.analysis.summary import load_steps
    from benchlens.app.rundata import LibraryRunData

    folder = tmp_path / "steps"
    folder.mkdir()
    shutil.copy(SB / "sysbench_1.0.20_C_oltp-read-only-summary-only-step-load-99pct.txt", folder / "sb.log")
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        steps = load_steps(LibraryRunData(lib), rep.id)
    assert steps is not None and steps.latency == "p99 ms"
    assert [(s.threads, s.n, s.tps_median) for s in steps.steps] == [(1, 1, 495.28), (2, 1, 739.41), (4, 1, 1672.38)]


PKB = sorted(SB.glob("*pkb-per-cpu-prefix.txt"))


def test_perfkitbenchmarker_per_cpu_runs_are_read() -> None:
    """Issue 22: PerfKitBenchmarker runs `echo -n "CPU $CPU "; taskset --cpu-list $CPU sysbench
    memory run` per CPU, so each run's banner reads `CPU 0 sysbench 1.0.11 (...)`: its sample output
    (and the same command run here for cpu and memory) was "not a known format", and memory's
    throughput lines were not read at all. Each run is one point, its values as printed."""
    sb = importers.by_name("sysbench")
    assert len(PKB) == 3
    for path in PKB:
        text = path.read_text()
        assert importers.detect(text[:65536]) is sb, path.name
        s, ctx = parse_series(sb, path.read_bytes())
        cpus = [line.split()[1] for line in text.splitlines() if line.startswith("CPU ") and " sysbench " in line]
        ends = np.cumsum(_numbers_after(text, "total time:"))
        assert len(ends) == len(cpus) >= 2 and np.allclose(s[("thds", "")][0], ends), path.name
        assert f"(PerfKitBenchmarker's `CPU N ` prefix): CPU {', '.join(cpus)}" in " ".join(ctx.variant)
        assert list(s[("lat_ms", "max")][1]) == _numbers_after(text, "max:")
        if "memory" in path.name:
            ops = [float(x.split("(")[1].split()[0]) for x in text.splitlines() if x.startswith("Total operations:")]
            mib = [float(x.split("(")[1].split()[0]) for x in text.splitlines() if "MiB transferred" in x]
            assert list(s[("tps", "")][1]) == ops and list(s[("memMiB/s", "")][1]) == mib, path.name
            assert ctx.units["memMiB/s"] == "MiB/s"
        else:
            assert list(s[("tps", "")][1]) == _numbers_after(text, "events per second:")
        assert not ctx.warnings, ctx.warnings
    s, _ = parse_series(sb, (SB / "sysbench_1.0.11_C_memory-pkb-per-cpu-prefix.txt").read_bytes())
    assert list(s[("memMiB/s", "")][1]) == [3803.18, 5343.59, 5353.06, 3811.29]  # PerfKitBenchmarker's own test


def test_a_total_time_no_float_holds_skips_its_run_with_a_warning() -> None:
    """Found by the fuzzer: `total time: 1e400s` (400 digits) made a run end at an infinite time."""
    path = SB / "sysbench_1.0.20_C_fileio-rndrd-summary-only.txt"
    text = path.read_text()
    line = next(k for k, x in enumerate(text.splitlines(), 1) if "total time:" in x)
    seconds = text.split("total time:")[1].split()[0]
    s, ctx = parse_series(importers.by_name("sysbench"), text.replace(seconds, "1" + "0" * 400 + "s").encode())
    assert s == {}
    assert [str(w) for w in ctx.warnings] == [
        f"line {line}: run summary's total time is no number of seconds: run skipped"
    ]


def test_a_benchmark_that_died_on_an_error_says_so() -> None:
    """A recorded run whose INSERT failed (error 1206, the buffer pool shrunk to 8 MB): sysbench
    printed `FATAL:` after its 30th report and stopped 45 s before its --time. Its reports are kept;
    the first FATAL line is a warning that says when and why, not a run that silently ends."""
    path = SB / "sysbench_1.0.20_C_oltp-read-write-fatal-error.txt"
    s, ctx = parse_series(importers.by_name("sysbench"), path.read_bytes())
    assert s[("tps", "")][0][-1] == 30.0 and len(s[("tps", "")][0]) == 30
    line = next(k for k, x in enumerate(path.read_text().splitlines(), 1) if x.startswith("FATAL:"))
    [w] = ctx.warnings
    assert w.line == line and "stopped on an error after 30 s of reports" in str(w)
    assert "error 1206 (The total number of locks exceeds the lock table size)" in str(w)
