#!/usr/bin/env python3
"""Write tests/fixtures/MANIFEST.md from the fixtures and the capture log.

The capture scripts append `file<TAB>environment<TAB>command` to $NOTE_FILE
(default /tmp/benchlens_capture.tsv); the quotes in the "oddities" column are taken
from the fixture files themselves. Usage: python3 manifest.py > ../fixtures/MANIFEST.md
"""

import glob
import os
import platform
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.normpath(os.path.join(HERE, "..", "fixtures"))
NOTE_FILE = os.environ.get("NOTE_FILE", "/tmp/benchlens_capture.tsv")

STYLE = {
    "C": "C.UTF-8: 24 h times, decimal point",
    "en_US": "en_US: AM/PM times in sysstat (`02:39:29 AM`, two tokens), banner `11/22/2026`",
    "de_DE": "de_DE: decimal comma, `Durchschn.:`, banner `22.11.2026`",
    "fr_FR": "fr_FR: decimal comma, `Moyenne :` (label is two tokens), banner `22/11/2026`",
    "ISO": "S_TIME_FORMAT=ISO: banner `2026-11-22`, iostat -t `2026-11-22T02:38:23+0000`; mpstat row times stay `HH:MM:SS`",
}
VM_STYLE = {
    "C": "English headers",
    "en_US": "English headers, same as C (vmstat -t stays 24 h in every locale)",
    "ISO": "S_TIME_FORMAT is ignored by vmstat: same text as C",
    "de_DE": "translated headers `frei`, `Cache`, `inakt aktiv`, `----Zeitstempel----`",
    "fr_FR": "translated headers `----------mémoire----------`, `-échange-`, `-système-`, `libre tampon`, `inact actif`, `-----horodatage----`",
}
VARIANT = {
    "vmstat": {
        "plain": "default columns, no time; first row = since boot",
        "t": "-t: date+time appended to rows, zone `UTC` at end of the names line",
        "w": "-w wide fields; adds column `gu`",
        "a": "-a: `inact active` instead of `buff cache`",
        "S-M": "-S M: memory in MiB (1048576 B)",
        "t-w": "-t -w: wide + timestamp",
        "header-repeat": "header repeated mid-stream (pty with 10 rows: every 7 data rows)",
        "n": "-n: header printed once although on a 10-row pty",
        "header-repeat-pipe": "stdout is a plain pipe/file, yet the header repeats after 22 data rows",
    },
    "iostat": {
        "x": "-x 12.x columns (discard + flush groups), no timestamps, 3 reports",
        "x-t": "-x -t: timestamp line before each report",
        "x-k-t": "-x -k -t (kB is the default: same header as x-t)",
        "x-m-t": "-x -m -t: `rMB/s wMB/s dMB/s`",
        "x-z-t": "-x -z -t, 5 reports, load only in the first 2 s: idle devices omitted",
        "JSON-x-t": "-o JSON -x -t",
        "t": "non-extended: `tps kB_read/s kB_wrtn/s kB_dscd/s kB_read kB_wrtn kB_dscd`",
        "human-x": "--human -x: values with k/M/G and % suffixes",
        "x-p-ALL-t": "-x -p ALL -t: partitions (loop77p1, loop77p2) and all idle devices listed",
        "device-hotplug": "device loop42 appears and disappears mid-capture",
    },
    "mpstat": {
        "P-ALL": "-P ALL: `all` + per-CPU rows, `Average:` block",
        "A": "-A: CPU, NODE, intr/s, per-IRQ (`24/s` … `PIW/s`) and softirq blocks",
        "u": "-u: only the `all` row",
        "JSON-P-ALL": "-o JSON -P ALL",
        "midnight": "faketime from 23:59:57: rows cross midnight, banner keeps the old date",
    },
}


def lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def q(s, n=110):
    s = s.rstrip()
    return "`" + (s if len(s) <= n else s[:n] + "…") + "`"


def vm_notes(ls, variant):
    rows = [l for l in ls if l.split() and l.split()[0].isdigit()]
    out = []
    mem = [tuple(r.split()[2:6]) for r in rows]
    if len(set(mem)) == 1 and len(rows) > 2:
        out.append(
            "memory columns never change after row 1 (procps 4.0.2 reads /proc/meminfo once): "
            f"swpd/free/{'inact/active' if variant == 'a' else 'buff/cache'} = `{' '.join(mem[0])}` on all {len(rows)} rows"
        )
    ncpu = 6 if variant in ("w", "t-w") else 5
    for r in rows:
        t = r.split()
        s = sum(int(x) for x in t[12 : 12 + ncpu])
        if s != 100:
            out.append(f"cpu columns sum to {s}: {q(r)}")
            break
    wide = [r for r in rows if any(len(x) >= 6 for x in r.split()[6:10])]
    if wide and variant not in ("w", "t-w"):
        out.append(f"big bi/bo push columns out of alignment: {q(wide[0])}")
    hdr = [i + 1 for i, l in enumerate(ls) if l.startswith(("procs", "--procs"))]
    if len(hdr) > 1:
        out.append(f"header at lines {', '.join(map(str, hdr))}")
    if variant in ("w", "t-w"):
        out.append(f"names line: {q(ls[1])}")
    return out


def io_notes(ls, variant, path):
    out = []
    devs = sorted(
        {l.split()[0] for l in ls if re.match(r"^(vda|loop|zram)", l)}
        | set(re.findall(r'"disk_device": "([^"]+)"', "\n".join(ls)))
    )
    out.append("devices: " + ", ".join(devs))
    empty = [ls[i - 1] for i, l in enumerate(ls[:-1]) if l.startswith("Device") and not ls[i + 1].strip()]
    if empty:
        ts = [ls[i - 4] for i, l in enumerate(ls[:-1]) if l.startswith("Device") and not ls[i + 1].strip()]
        out.append(f"report(s) with a `Device` header and no device row: at {', '.join(q(t) for t in ts)}")
    if variant == "device-hotplug":
        reps = []
        for l in ls:
            if re.match(r"^\S+ \d\d:\d\d:\d\d$", l):
                reps.append([l, False])
            elif l.startswith("loop42"):
                reps[-1][1] = True
        on = [i + 1 for i, (_, has) in enumerate(reps) if has]
        if on:
            out.append(
                f"loop42 present in reports {on[0]}–{on[-1]} of {len(reps)} "
                f"(appears at {q(reps[on[0] - 1][0])}, gone from {q(reps[on[-1]][0]) if on[-1] < len(reps) else 'end'}); "
                f"its first row is a rate over a partial interval: {q(next(l for l in ls if l.startswith('loop42')), 80)}"
            )
    if variant == "x-p-ALL-t":
        order = [l.split()[0] for l in ls if re.match(r"^(vda|loop|zram)", l)][: len(devs)]
        odd = (
            " (loop0 comes late only because it was deleted and re-created earlier on this machine)"
            if order and order[0] != "loop0" and "loop0" in order
            else ""
        )
        out.append(
            "never-used devices are listed with all zeros; order is /sys/block readdir order: " + " ".join(order) + odd
        )
    if variant == "human-x":
        row = next(l for l in ls if l.startswith("vda"))
        out.append(
            f"header still says `rkB/s` while values carry units; %-columns get one decimal and `%`: {q(row, 100)}"
        )
    if variant == "JSON-x-t":
        ts = next(l for l in ls if '"timestamp"' in l).strip()
        user = re.search(r'"user": [0-9.]+', "\n".join(ls)).group()
        out.append(f"numbers always use a decimal point (`{user}`) but date/timestamp strings are localised: `{ts}`")
    first = next((l for l in ls if l.startswith("vda")), "")
    if first and variant not in ("human-x",):
        out.append(f"report 1 is since boot: {q(first, 70)}")
    return out


def mp_notes(ls, variant, style):
    out = []
    if variant == "A":
        cpus = []
        for i, l in enumerate(ls):
            if l.split()[-1:] == ["intr/s"]:
                cpus = ls[i + 1 : i + 4]
                break
        if cpus:
            out.append(
                "intr/s `all` is not the sum of the CPUs (it counts all interrupts): "
                + " / ".join(q(c, 40) for c in cpus)
            )
        node = next((l for l in ls if "NODE" in l and not re.match(r"^\d", l)), None)
        if node:
            out.append(f"average NODE header: {q(node, 50)}")
        irq = next(l for l in ls if "24/s" in l)
        out.append(
            f"per-IRQ header has {len(irq.split()) - (3 if ' AM ' in irq or ' PM ' in irq else 2)} columns (machine specific): {q(irq, 70)}"
        )
    if variant == "JSON-P-ALL":
        ts = next(l for l in ls if '"timestamp"' in l).strip()
        d = next(l for l in ls if '"date"' in l).strip()
        out.append(f"timestamp has no date: `{ts}`; date only in `{d}`; numbers with decimal point in every locale")
    if variant == "midnight":
        cross = [l for l in ls if l.startswith(("00:00:00", "12:00:00 AM"))][:1]
        before = [l for l in ls if l.startswith(("23:59:59", "11:59:59 PM"))][:1]
        out.append(f"banner {q(ls[0].split(chr(9))[1].strip())}; {q(before[0], 45)} then {q(cross[0], 45)}")
    avg = next(
        (l for l in ls if not re.match(r"^\d", l) and l.strip() and not l.startswith(("Linux", "{", "\t", " ", "}"))),
        None,
    )
    if avg and variant not in ("JSON-P-ALL",):
        out.append(f"average label: {q(avg, 40)}")
    return out


def row(*cells):
    print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")


def main():
    notes = {}
    if os.path.exists(NOTE_FILE):
        with open(NOTE_FILE, encoding="utf-8") as fh:
            for l in fh:
                f, e, c = l.rstrip("\n").split("\t")
                notes[f] = (e, c)
    ver = {
        "vmstat": subprocess.run(["vmstat", "-V"], capture_output=True, text=True).stdout.split()[-1],
        "sysstat": re.search(
            r"version (\S+)",
            subprocess.run(["iostat", "-V"], capture_output=True, text=True).stdout
            + subprocess.run(["iostat", "-V"], capture_output=True, text=True).stderr,
        ).group(1),
    }
    print(HEADER.format(kernel=platform.release(), vm=ver["vmstat"], ss=ver["sysstat"]))
    for sect, pattern in (("vmstat", "vmstat/*.txt"), ("iostat", "iostat/*.txt"), ("mpstat", "mpstat/*.txt")):
        print(f"\n## {sect}/\n")
        print("| file | command line and environment | version | exercises | oddities (quoted from the file) |")
        print("|---|---|---|---|---|")
        for p in sorted(glob.glob(os.path.join(FIX, pattern))):
            rel = os.path.relpath(p, FIX)
            tool, v, rest = os.path.basename(p)[:-4].split("_", 2)
            style, variant = (
                rest.split("_", 1)
                if rest.startswith(("C_", "ISO_"))
                else ("_".join(rest.split("_")[:2]), rest.split("_", 2)[2])
            )
            env, cmd = notes.get(rel, ("?", "?"))
            ls = lines(p)
            ex = VARIANT[tool][variant] + "; " + (VM_STYLE if tool == "vmstat" else STYLE)[style]
            odd = (
                vm_notes(ls, variant)
                if tool == "vmstat"
                else io_notes(ls, variant, p)
                if tool == "iostat"
                else mp_notes(ls, variant, style)
            )
            row(f"`{os.path.basename(p)}`", f"`{env} {cmd}`", f"{tool} {v}", ex, "; ".join(odd))
    print(RUNS_INTRO)
    print("| file | command line and environment | version | exercises | oddities (quoted from the file) |")
    print("|---|---|---|---|---|")
    for p in sorted(glob.glob(os.path.join(FIX, "runs", "*", "*.log"))):
        rel = os.path.relpath(p, FIX)
        run, tool = rel.split("/")[1], os.path.basename(p)[:-4]
        env, cmd = notes.get(rel, ("?", "?"))
        ls = lines(p)
        v = ver["vmstat"] if tool == "vmstat" else ver["sysstat"]
        if run.startswith("locales_"):
            style = run[len("locales_") :]
            ex = "same numbers as every other locales_* folder; " + (
                VM_STYLE[style] if tool == "vmstat" else STYLE[style]
            )
        elif run == "c_basic":
            ex = "real run, C locale, with times; burst of disk+CPU load in the middle"
        else:
            ex = "real run without times in vmstat/iostat (mpstat has them); burst in the middle"
        odd = (
            vm_notes(ls, "t")
            if tool == "vmstat"
            else io_notes(ls, "x-t", p)
            if tool == "iostat"
            else mp_notes(ls, "P-ALL", "")
        )
        if tool == "mpstat" and run in ("c_basic", "notimes"):
            odd.append("stopped by SIGINT: mpstat still prints its average block")
        if tool != "mpstat" and run in ("c_basic", "notimes"):
            odd.append("stopped by SIGINT after the last complete report: no partial line")
        row(f"`{rel}`", f"`{env} {cmd}`", f"{tool} {v}", ex, "; ".join(odd))


HEADER = """# Fixture manifest

Real captures made on one machine by the scripts in `tests/capture/` (rerun them to
regenerate; `manifest.py` rewrites this file). Nothing here was edited by hand, except that
`script(1)` captures had their CRs removed (see vmstat header-repeat rows).

## Machine
- Debian 12, kernel `{kernel}` (x86_64), 2 CPUs, hostname `vm`, date of capture 2026-11-22 (machine clock).
- procps-ng (vmstat) {vm}, sysstat (iostat, mpstat) {ss}.
- Time zone: `TZ=UTC` set explicitly by the scripts (the machine's /etc/localtime is Etc/UTC too), so vmstat
  prints `UTC` and ISO times end in `+0000`.
- Block devices: `vda` (virtio, 256 GiB, root file system, **no partitions**), `zram0` (0 B, never used),
  `loop0`–`loop7` (unused, all-zero counters). Created only for single captures and removed afterwards:
  `loop77` with partitions `loop77p1`/`loop77p2` (for `-p ALL`; this kernel has no partition-table
  parsers, so `partx -a` added them), `loop42` (hot-plug capture).
- Every tool ran under `env -i PATH=… TZ=UTC TERM=xterm` plus only the variables shown in the table.
- Load: `dd` 64 MiB `oflag=direct` writes + `iflag=direct` reads of a temp file in a loop, plus `yes >/dev/null`,
  bounded by time (`tests/capture/common.sh: load`). That is why `vda` shows `d/s` (discards of the deleted temp file).
- The styles of one single-tool variant were captured in parallel (same seconds, same load), so their
  numbers are similar but **not** identical; only `runs/locales_*` carry identical numbers.

## Things worth knowing (seen in these files)
- **vmstat 4.0.2 freezes the memory columns**: `swpd free buff cache` (and `inact active`) are the same on
  every row. strace shows /proc/meminfo read only before the first row; confirmed by allocating 2 GB while
  vmstat ran: `free` stayed at `22196424` while `free -k` showed `20649648`.
- **vmstat repeats its header when stdout is not a terminal** too (every 22 data rows, the default 24-row
  height), see `vmstat_4.0.2_C_header-repeat-pipe.txt`; on a 10-row pty every 7 rows; `-n` stops it.
- vmstat `-w` adds a `gu` column that the normal layout does not have; cpu percentages are rounded
  separately and sum to 99–102; large `bi`/`bo` values shift the columns (split on whitespace).
- vmstat `-t` prints `YYYY-MM-DD HH:MM:SS` (24 h) in every locale; only the group header is translated.
- sysstat `-o JSON` numbers always use `.`, but the `date`/`timestamp` strings follow the locale
  (`"22.11.2026 02:38:39"`, `"11/22/2026 02:38:39 AM"`, `"2026-11-22T02:38:39+0000"`); mpstat JSON
  timestamps have no date.
- `S_TIME_FORMAT=ISO` changes the banner date and iostat's `-t` line, **not** mpstat's row times.
- fr_FR average label is `Moyenne :` (two whitespace tokens); de_DE `Durchschn.:`.
- `iostat -z` can print a report whose `Device` header has no rows.
- `iostat --human` keeps the `rkB/s` header while the values read like `37.8M`; units are 1024-based
  (r/s × `rareq-sz` in k ÷ 1024 gives the M value).
- `iostat -p ALL` also lists never-used devices (all zeros), and a device deleted and re-created moves
  to the end of the listing (readdir order).
- mpstat `-A`: the `intr/s` row for `all` exceeds the sum of the CPU rows; the per-IRQ block is machine specific.
- faketime works with mpstat 12.6.1: `faketime -f '@2026-11-22 23:59:57' mpstat -P ALL 1 6` crosses to
  `00:00:00` (`12:00:00 AM` in en_US) while the banner keeps `11/22/26`.
"""

RUNS_INTRO = """
## runs/

`c_basic/` and `notimes/`: the three tools started in the same second (`tests/capture/runs.sh`),
stopped together with `timeout -s INT`; a load burst in the middle.

`locales_C/`, `locales_en_US/`, `locales_de_DE/`, `locales_ISO/` (and `locales_fr_FR/`): **identical
measurements** printed under each setting (`tests/capture/locales.sh`, `replay.py`). Ten snapshots,
one per second, of the files the tools read were recorded during a real load
(`tests/capture/locales_snapshots.json.gz`); then, in a private mount namespace (`unshare -m`), a regular
file was bind-mounted over each of `/proc/stat`, `/proc/vmstat`, `/proc/meminfo`, `/proc/uptime` and
`/sys/devices/…/block/*/stat` and rewritten in place (same inode: vmstat keeps its fds open and
re-reads with lseek) at T0+k−0.5 s, while all 15 processes (3 tools × 5 settings) were started at T0+0.02 s
(within ~0.04 s), sampling at T0+k. strace showed what each reads per interval: vmstat `/proc/stat`,
`/proc/vmstat`; iostat -x `/proc/uptime`, `/proc/stat`, `/sys/block/<dev>/stat` (12.6.1 reads sysfs, not
/proc/diskstats); mpstat -P ALL `/proc/uptime`, `/proc/stat`. Times and banner dates come from the real clock, so
they match because the processes run in the same seconds. `replay.py verify` parses all five outputs
(decimal comma normalised, AM/PM and every date style converted) and found them identical;
replaying the same snapshot file again gives the same numbers with new times.
"""

if __name__ == "__main__":
    main()
