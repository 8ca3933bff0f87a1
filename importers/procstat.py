"""/proc/stat taken in a loop (pt-stalk's `-procstat` file): `TS <epoch> …` marker lines, each
followed by the raw file, turned into mpstat's CPU percentages and the host's event rates.

Variants covered (fixtures in tests/fixtures/procstat): kernel 6.x (`cpu` lines with 10 fields
`user nice system idle iowait irq softirq steal guest guest_nice`, in USER_HZ ticks), and
older kernels' shorter `cpu` lines (fields missing at the end are left out of the metrics).

Metrics, per interval between two snapshots, at the later one's time:
- per CPU (entity `all` for the `cpu` line, `0`, `1` … for `cpuN`), as sysstat 12's mpstat
  computes them (ll_sp_value over get_per_cpu_interval): the interval is Δ(user + nice + system +
  idle + iowait + irq + softirq + steal) (guest time is already inside user and nice);
  `%usr` = Δ(user - guest), `%nice` = Δ(nice - guest_nice), `%sys`, `%iowait`, `%irq`, `%soft`,
  `%steal`, `%guest`, `%gnice`, `%idle` = Δfield / interval x 100; a field that went down
  (iowait and idle do on tickless kernels) counts 0, as in mpstat; a CPU with no ticks in the
  interval (offline) shows `%idle` 100, as mpstat does;
- host-wide (entity ""): `cswch/s` (Δctxt), `intr/s` (Δ of the `intr` total), `proc/s`
  (Δprocesses, forks), per second (sar -w / -I SUM names); gauges `procs_running`,
  `procs_blocked` as printed.
A host counter going down (reboot) gives no rate for that interval, with a warning; a CPU line
missing on one side of an interval (CPU offlined) gives no values there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._proc import Counters, collect, count, marked
from benchlens.importers._types import Block, Context

name = "procstat"

CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal", "guest", "guest_nice")
TOTAL = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
# metric -> (field, field subtracted from it)
PERCENT = {
    "%usr": ("user", "guest"),
    "%nice": ("nice", "guest_nice"),
    "%sys": ("system", None),
    "%iowait": ("iowait", None),
    "%irq": ("irq", None),
    "%soft": ("softirq", None),
    "%steal": ("steal", None),
    "%guest": ("guest", None),
    "%gnice": ("guest_nice", None),
    "%idle": ("idle", None),
}
RATES = {"ctxt": "cswch/s", "intr": "intr/s", "processes": "proc/s"}
GAUGES = ("procs_running", "procs_blocked")
_CPU = re.compile(r"^cpu(\d*)$")
_SNIFF_CPU = re.compile(r"^cpu +\d+ \d+ \d+ \d+", re.M)
_SNIFF_REST = re.compile(r"^(?:ctxt|btime|processes|procs_running) \d+$", re.M)


def sniff(head: str) -> float:
    if not (_SNIFF_CPU.search(head) and _SNIFF_REST.search(head)):
        return 0.0
    return marked(head)


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = collect(chunks, ctx, _snapshot)
    if len(snaps) < 2:
        ctx.warn(None, f"{len(snaps)} /proc/stat snapshot(s): rates need two", kind="format")
        return
    t, dt, usable = snaps.intervals(ctx)
    host = _host(snaps, dt, ctx)
    if host:
        yield Block("", t[usable], {m: v[usable] for m, v in host.items()})
    for cpu in snaps.entities():
        if cpu:
            block = _cpu(snaps, cpu, ctx)
            if block:
                yield Block(cpu, t[usable], {m: v[usable] for m, v in block.items()})


def _snapshot(lines: list[str], first: int, ctx: Context) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for i, line in enumerate(lines):
        words = line.split()
        if not words:
            continue
        key, rest = words[0], words[1:]
        m = _CPU.match(key)
        if m is None and key not in RATES and key not in GAUGES:
            continue  # btime, softirq, page/swap (2.4) …: not read
        numbers = [count(x) for x in rest]
        if not numbers or any(x is None for x in numbers) or (m is None and key != "intr" and len(numbers) != 1):
            if ctx.room():
                ctx.warn(first + i, f"not a /proc/stat line: {line.strip()[:60]!r}; skipped", kind="unreadable")
            continue
        if m is not None:
            entity = m.group(1) or "all"
            for field, x in zip(CPU_FIELDS, numbers, strict=False):
                out[(entity, field)] = float(x or 0.0)
        else:
            out[("", key)] = float(numbers[0] or 0.0)  # intr: its first number is the total
    return out


def _host(snaps: Counters, dt: np.ndarray, ctx: Context) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    keys = snaps.keys("")
    for key in keys:
        if key in GAUGES:
            out[key] = snaps.column("", key)[1:]
            ctx.units.setdefault(key, "")
            continue
        d, reset = snaps.deltas("", [key])
        snaps.warn_resets(ctx, "host", reset & ~np.isnan(d[key]), "the")
        with np.errstate(invalid="ignore", over="ignore"):
            out[RATES[key]] = np.where(reset, np.nan, d[key] / dt)
        ctx.units.setdefault(RATES[key], "1/s")
    return out


def _cpu(snaps: Counters, cpu: str, ctx: Context) -> dict[str, np.ndarray]:
    fields = [f for f in CPU_FIELDS if f in snaps.keys(cpu)]
    if not set(TOTAL[:4]) <= set(fields):
        return {}
    d, _ = snaps.deltas(cpu, fields)
    missing = np.zeros(len(snaps) - 1, bool)
    for f in fields:
        missing |= np.isnan(d[f])
    with np.errstate(invalid="ignore", over="ignore"):
        parts = {f: np.maximum(d[f], 0.0) for f in fields}  # mpstat: a field that went down counts 0
        if "guest" in d:  # user - guest, nice - guest_nice, floored at 0 as mpstat does
            parts["user"] = np.maximum(d["user"] - d["guest"], 0.0)
        if "guest_nice" in d:
            parts["nice"] = np.maximum(d["nice"] - d["guest_nice"], 0.0)
        total = sum((np.maximum(d[f], 0.0) for f in TOTAL if f in d), np.zeros(len(missing)))
        idle_cpu = total <= 0
        out: dict[str, np.ndarray] = {}
        for metric, (field, _) in PERCENT.items():
            if field not in parts:
                continue
            v = np.where(idle_cpu, 0.0, parts[field] / np.where(idle_cpu, 1.0, total) * 100.0)
            if metric == "%idle":
                v = np.where(idle_cpu, 100.0, v)
            v[missing] = np.nan
            out[metric] = v
            ctx.units.setdefault(metric, "%")
    return out
