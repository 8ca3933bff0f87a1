"""Import speed and memory: `python bench/import_speed.py [--lines N] [--gb G]`.

Makes an `iostat -x -t` capture with 20 devices (sysstat 12.x columns), an `mpstat -P ALL` capture
with 64 CPUs, a `sar -f` capture (`-u ALL -P ALL` on 64 CPUs, then `-n DEV` on 16 interfaces,
headers repeated every 11 intervals as sar prints them) and a pt-stalk `-diskstats` loop (40
devices, kernel 6.x 17-field lines) of about N lines each (default 2,000,000; `--only sar
diskstats` measures some of them),
from value rows shaped like the real captures in tests/fixtures, imports each with `benchlens
import` into a fresh library in a subprocess, and prints lines/s (the median of `--repeat R`
imports, with their range), lines per CPU second, the ratio to `wc -l` on the same file and the
peak RSS. `--gb G` also makes and
imports an iostat capture of G GiB to check memory stays bounded.
Targets (PRODUCT.md): >= 1,000,000 lines/s parse + store; < 500 MB RSS for a 2 GB file.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).parent / "out"
IOSTAT_HDR = (
    "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await "
    "wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util"
)
MPSTAT_HDR = "CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle"


def _rows(rng: random.Random, names: list[str], ncols: int, width: int, variants: int) -> list[str]:
    """`variants` blocks of rows, one row per name, with plausible values."""
    blocks = []
    for _ in range(variants):
        lines = []
        for n in names:
            vals = [rng.choice((0.0, rng.random() * 100, rng.random() * 50000)) for _ in range(ncols)]
            lines.append(f"{n:<{width}}" + "".join(f" {v:8.2f}" for v in vals))
        blocks.append("\n".join(lines) + "\n")
    return blocks


def make_iostat(path: Path, lines: int) -> None:
    rng = random.Random(1)
    devs = [f"sd{chr(97 + i)}" for i in range(16)] + ["dm-0", "dm-1", "nvme0n1", "md127"]
    blocks = _rows(rng, devs, 22, 12, 64)
    per_report = len(devs) + 6
    t0 = 1795312800
    with path.open("w") as f:
        f.write("Linux 6.1.0-18-amd64 (bench) \t11/22/26 \t_x86_64_\t(2 CPU)\n\n")
        for r in range(lines // per_report):
            tm = time.gmtime(t0 + r)
            f.write(
                f"{tm.tm_mon:02d}/{tm.tm_mday:02d}/{tm.tm_year % 100:02d} {tm.tm_hour:02d}:{tm.tm_min:02d}:"
                f"{tm.tm_sec:02d}\navg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
                f"          {rng.random() * 50:5.2f}    0.00    7.48    2.55    0.01   78.55\n\n{IOSTAT_HDR}\n"
            )
            f.write(blocks[r % len(blocks)])
            f.write("\n")


def make_mpstat(path: Path, lines: int) -> None:
    rng = random.Random(2)
    cpus = ["all", *[str(i) for i in range(64)]]
    per = len(cpus) + 2
    t0 = 1795312800
    with path.open("w") as f:
        f.write("Linux 6.1.0-18-amd64 (bench) \t11/22/26 \t_x86_64_\t(64 CPU)\n\n")
        for r in range(lines // per):
            prev = time.gmtime(t0 + r)
            tm = time.gmtime(t0 + r + 1)
            stamp = f"{tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d}"
            f.write(f"{prev.tm_hour:02d}:{prev.tm_min:02d}:{prev.tm_sec:02d}     {MPSTAT_HDR}\n")
            for c in cpus:
                v = [rng.random() * 30 for _ in range(9)]
                f.write(f"{stamp}  {c:>5}" + "".join(f" {x:7.2f}" for x in v) + f" {100 - sum(v) / 3:7.2f}\n")
            f.write("\n")


SAR_CPU_HDR = "CPU      %usr     %nice      %sys   %iowait    %steal      %irq     %soft    %guest    %gnice     %idle"
SAR_DEV_HDR = "IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil"


def make_sar(path: Path, lines: int) -> None:
    """Two reports of `sar -f`, each over the same intervals, as sar prints them: a header line
    every 11 intervals and a blank line before it, the summary (`Average:`) at the end."""
    rng = random.Random(3)
    reports = (
        (SAR_CPU_HDR, ["all", *[str(i) for i in range(64)]], 10),
        (SAR_DEV_HDR, ["lo", "eth0", *[f"ens{i}" for i in range(14)]], 8),
    )
    per = sum(len(labels) for _, labels, _ in reports)
    intervals = lines // per
    t0 = 1795312800
    with path.open("w") as f:
        f.write("Linux 6.1.0-18-amd64 (bench) \t11/22/26 \t_x86_64_\t(64 CPU)\n")
        for hdr, labels, ncols in reports:
            blocks = _rows(rng, labels, ncols, 9, 64)
            for r in range(intervals):
                if r % 11 == 0:
                    f.write(f"\n{time.strftime('%H:%M:%S', time.gmtime(t0 + r))}        {hdr}\n")
                stamp = time.strftime("%H:%M:%S", time.gmtime(t0 + r + 1))
                f.write("".join(f"{stamp} {row}\n" for row in blocks[r % len(blocks)].splitlines()))
            f.write("".join(f"Average:  {row}\n" for row in blocks[0].splitlines()))


def make_diskstats(path: Path, lines: int) -> None:
    """pt-stalk's `-diskstats` loop: a `TS <epoch>.<ns> <date> <time>` marker, then /proc/diskstats
    (kernel 6.x, 17 fields) of 40 devices and partitions, counters growing as on a busy host."""
    rng = random.Random(4)
    devs = [(8, 16 * i, f"sd{chr(97 + i)}") for i in range(16)]
    devs += [(8, 16 * i + p, f"sd{chr(97 + i)}{p}") for i in range(8) for p in (1, 2)]
    devs += [(259, i, f"nvme{i}n1") for i in range(4)] + [(253, i, f"dm-{i}") for i in range(4)]
    per = len(devs) + 1
    counters = [[rng.randrange(10**6) for _ in range(17)] for _ in devs]
    t0 = 1795312800
    with path.open("w") as f:
        for r in range(lines // per):
            tm = time.gmtime(t0 + r)
            f.write(f"TS {t0 + r}.{rng.randrange(10**9):09d} {time.strftime('%F %T', tm)}\n")
            for (major, minor, name), c in zip(devs, counters, strict=True):
                for j in range(17):
                    if j != 8:  # in_flight is a level, the rest only grow
                        c[j] += rng.randrange(200)
                c[8] = rng.randrange(8)
                f.write(f"{major:4d} {minor:7d} {name} " + " ".join(map(str, c)) + "\n")


def wc_seconds(path: Path) -> tuple[int, float]:
    t = time.perf_counter()
    out = subprocess.run(["wc", "-l", str(path)], capture_output=True, text=True, check=True).stdout
    return int(out.split()[0]), time.perf_counter() - t


def import_once(path: Path) -> tuple[float, float, float, int]:
    """Seconds, CPU seconds (all threads), peak RSS (MB) and page faults of `benchlens import` of one
    file into a fresh library. Page faults (fresh memory touched, 4 KiB each) hardly move with the
    load of a shared machine, unlike seconds: on a VM, touching fresh memory is a large part of the
    CPU time (a 2M-line diskstats import: ~105k faults)."""
    with tempfile.TemporaryDirectory() as d:
        code = (
            "import resource, sys, time; from benchlens.app.cli import main; t = time.perf_counter(); "
            f"c = time.process_time(); f = resource.getrusage(resource.RUSAGE_SELF).ru_minflt; "
            f"rc = main(['import', {str(path)!r}, '--db', {d + '/lib.sqlite'!r}, '--json']); "
            "r = resource.getrusage(resource.RUSAGE_SELF); "
            "print(time.perf_counter() - t, time.process_time() - c, r.ru_maxrss / 1024, r.ru_minflt - f, "
            "file=sys.stderr); sys.exit(rc)"
        )
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"import failed: {p.stderr.strip()[-500:]}")
        secs, cpu, rss, faults = p.stderr.strip().splitlines()[-1].split()
        return float(secs), float(cpu), float(rss), int(faults)


def report(label: str, path: Path, repeat: int) -> None:
    """The median of `repeat` imports with the range (the machine is shared: one run says little),
    lines per CPU second and page faults (what a busy machine changes least), the median `wc -l`
    against the median import, the largest peak RSS, and the load average while it ran."""
    n = wc_seconds(path)[0]
    runs, wcs = [], []
    for _ in range(repeat):
        wcs.append(wc_seconds(path)[1])
        runs.append(import_once(path))
    secs = statistics.median(r[0] for r in runs)
    cpu = statistics.median(r[1] for r in runs)
    rss = max(r[2] for r in runs)
    faults = statistics.median(r[3] for r in runs)
    wc = statistics.median(wcs)
    size = path.stat().st_size / 2**20
    spread = f" ({n / max(r[0] for r in runs):,.0f}-{n / min(r[0] for r in runs):,.0f})" if repeat > 1 else ""
    print(
        f"{label:28} {n:>11,} lines {size:6.0f} MiB  import {secs:5.2f} s = {n / secs:>9,.0f} lines/s{spread}  "
        f"CPU {cpu:5.2f} s = {n / cpu:>9,.0f} lines/CPU-s  wc -l {wc:4.2f} s (import/wc = {secs / wc:5.1f}x)  "
        f"peak RSS {rss:4.0f} MB  page faults {faults / 1000:4.0f}k  load {os.getloadavg()[0]:.1f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--lines", type=int, default=2_000_000)
    ap.add_argument("--only", nargs="*", default=[], help="captures to measure: iostat mpstat sar diskstats")
    ap.add_argument("--repeat", type=int, default=1, help="imports of each capture; the median and the range are shown")
    ap.add_argument("--gb", type=float, default=0.0, help="also import an iostat capture of this many GiB")
    args = ap.parse_args()
    OUT.mkdir(exist_ok=True)
    from benchlens.importers._tokens import HAS_COMPILED_CORE

    print(f"tokenizer core: {'compiled' if HAS_COMPILED_CORE else 'pure Python'}; {os.cpu_count()} CPUs")
    io_path = OUT / "iostat-x-t-20dev.txt"
    captures = (
        ("iostat", "iostat -x -t, 20 devices", io_path, make_iostat),
        ("mpstat", "mpstat -P ALL, 64 CPUs", OUT / "mpstat-P-ALL-64cpu.txt", make_mpstat),
        ("sar", "sar -u ALL -P ALL -n DEV", OUT / "sar-u-ALL-P-ALL-n-DEV.txt", make_sar),
        ("diskstats", "pt-stalk -diskstats, 40 devs", OUT / "diskstats-40dev.txt", make_diskstats),
    )
    for key, label, path, make in captures:
        if args.only and key not in args.only:
            continue
        if not path.exists() or wc_seconds(path)[0] < args.lines * 0.9:
            make(path, args.lines)
        report(label, path, args.repeat)
    if args.gb:
        if not io_path.exists():
            make_iostat(io_path, args.lines)
        big = OUT / f"iostat-{args.gb:g}GiB.txt"
        if not big.exists():
            make_iostat(big, int(args.gb * 2**30 / (io_path.stat().st_size / wc_seconds(io_path)[0])))
        report(f"iostat {args.gb:g} GiB", big, 1)
        big.unlink()


if __name__ == "__main__":
    main()
