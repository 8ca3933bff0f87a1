"""/proc/diskstats taken in a loop (pt-stalk's `-diskstats` file): `TS <epoch> …` marker lines,
each followed by the raw file, turned into the per-device metrics of `iostat -x`.

Variants covered (fixtures in tests/fixtures/diskstats):
- kernel 6.x lines `major minor name` + 17 fields (11 I/O fields, 4 discard fields since 4.18,
  2 flush fields since 5.5), captured here next to `iostat -x -t 1` over the same seconds;
- 2.6-era lines with 11 fields and partitions with 4 (reads, sectors read, writes, sectors
  written), from percona-toolkit's own pt-diskstats test sample;
- any marker importers/_snapshots.py reads (pt-stalk's `TS 1327510177.628000 2012-01-25T10:49:37`
  and `TS <epoch>.<ns> YYYY-MM-DD HH:MM:SS`).

Metrics (entity: the device name as printed), per interval between two snapshots, at the later
one's time, computed as sysstat 12's iostat does (common.c compute_ext_disk_stats, iostat.c
write_ext_stat) with the TS interval in place of /proc/uptime's:
`r/s w/s d/s f/s` = Δcompleted/Δt; `rrqm/s wrqm/s drqm/s` = Δmerged/Δt; `rkB/s wkB/s dkB/s` =
Δsectors/2/Δt (sectors are 512 bytes whatever the device); `%rrqm` = Δmerged/(Δmerged+Δcompleted)
x100; `r_await w_await d_await f_await` = Δms/Δcompleted (ms; 0 with no I/O, as iostat prints);
`rareq-sz wareq-sz dareq-sz` = Δsectors/2/Δcompleted (kB); `aqu-sz` = Δweighted ms/Δt/1000;
`%util` = Δms doing I/O/Δt/10, at most 100. A 4-field partition line gives `r/s rkB/s w/s wkB/s`.
Devices that never did any I/O in the file (all counters 0: loop, ram) are left out, like iostat
without `-p`/`-N` leaves them. A counter going down (reboot, 32-bit wrap) or a device missing on
either side of an interval gives no values for that interval (a gap), with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._proc import Counters, collect, count, marked
from benchlens.importers._types import Block, Context

name = "diskstats"

# the fields after `major minor name`, in /proc/diskstats order (Documentation/admin-guide/iostats.rst)
FIELDS = (
    "rd_ios", "rd_merges", "rd_sectors", "rd_ticks",
    "wr_ios", "wr_merges", "wr_sectors", "wr_ticks",
    "in_flight", "io_ticks", "rq_ticks",
    "dc_ios", "dc_merges", "dc_sectors", "dc_ticks",
    "fl_ios", "fl_ticks",
)  # fmt: skip
PARTITION_FIELDS = ("rd_ios", "rd_sectors", "wr_ios", "wr_sectors")  # 2.6 kernels' partition lines
_LINE = re.compile(r"^\s*\d+\s+\d+\s+(\S+)((?:\s+\S+){4,})\s*$")
_SNIFF = re.compile(r"^\s*\d+\s+\d+\s+[A-Za-z]\S*(?: +\d+){11,20} *$", re.M)
VARIANTS = {
    4: "4-field partition lines (kernel < 2.6.25)",
    11: "11 fields (kernel < 4.18)",
    15: "15 fields: discards (kernel 4.18+)",
    17: "17 fields: discards and flushes (kernel 5.5+)",
}
UNITS = {"%": "%", "await": "ms", "kB/s": "kB/s", "areq-sz": "kB", "aqu-sz": ""}
# (prefix, ios, merges, sectors, ticks) of the request kinds iostat prints
KINDS = (("r", "rd_ios", "rd_merges", "rd_sectors", "rd_ticks"), ("w", "wr_ios", "wr_merges", "wr_sectors", "wr_ticks"))
DISCARD = ("d", "dc_ios", "dc_merges", "dc_sectors", "dc_ticks")


def sniff(head: str) -> float:
    rows = len(_SNIFF.findall(head))
    if not rows:
        return 0.0
    return marked(head)


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = collect(chunks, ctx, _snapshot)
    if len(snaps) < 2:
        ctx.warn(None, f"{len(snaps)} /proc/diskstats snapshot(s): rates need two", kind="format")
        return
    t, dt, usable = snaps.intervals(ctx)
    for device in snaps.entities():
        if not any(np.nansum(snaps.column(device, k)) for k in snaps.keys(device)):
            continue  # never did any I/O: iostat hides it too
        block = _device(snaps, device, dt, usable, ctx)
        if block:
            yield Block(device, t[usable], {m: v[usable] for m, v in block.items()})


def _snapshot(lines: list[str], first: int, ctx: Context) -> dict[tuple[str, str], float]:
    out: dict[tuple[str, str], float] = {}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        m = _LINE.match(line)
        numbers = [count(x) for x in m.group(2).split()] if m else []
        fields = FIELDS if len(numbers) >= 11 else PARTITION_FIELDS if len(numbers) == 4 else ()
        if m is None or not fields or any(x is None for x in numbers):
            if ctx.room():
                ctx.warn(first + i, f"not a /proc/diskstats line: {line.strip()[:60]!r}; skipped", kind="unreadable")
            continue
        ctx.note_variant(VARIANTS.get(len(numbers), f"{len(numbers)} fields"))
        device = m.group(1)
        for key, x in zip(fields, numbers, strict=False):
            out[(device, key)] = float(x or 0.0)
    return out


def _device(snaps: Counters, device: str, dt: np.ndarray, usable: np.ndarray, ctx: Context) -> dict[str, np.ndarray]:
    keys = [k for k in FIELDS if k != "in_flight" and k in snaps.keys(device)]
    d, reset = snaps.deltas(device, keys)
    snaps.warn_resets(ctx, device, reset & usable, "device")
    out: dict[str, np.ndarray] = {}
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        for kind in (*KINDS, DISCARD):
            _kind(out, d, kind, dt)
        if "fl_ios" in d:
            out["f/s"] = d["fl_ios"] / dt
            out["f_await"] = _per(d["fl_ticks"], d["fl_ios"])
        if "rq_ticks" in d:
            out["aqu-sz"] = d["rq_ticks"] / dt / 1000.0
        if "io_ticks" in d:
            out["%util"] = np.minimum(d["io_ticks"] / dt / 10.0, 100.0)
    for m, v in out.items():
        v[reset] = np.nan
        ctx.units.setdefault(m, unit(m))
    return out


def _kind(out: dict[str, np.ndarray], d: dict[str, np.ndarray], kind: tuple[str, ...], dt: np.ndarray) -> None:
    p, ios, merges, sectors, ticks = kind
    if ios not in d or sectors not in d:
        return
    out[f"{p}/s"] = d[ios] / dt
    out[f"{p}kB/s"] = d[sectors] / 2.0 / dt
    if merges in d and ticks in d:
        out[f"{p}rqm/s"] = d[merges] / dt
        out[f"%{p}rqm"] = _per(d[merges], d[merges] + d[ios]) * 100.0
        out[f"{p}_await"] = _per(d[ticks], d[ios])
        out[f"{p}areq-sz"] = _per(d[sectors] / 2.0, d[ios])


def _per(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num/den, 0 where den is 0 (iostat prints 0.00 for an interval without I/O)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.where(np.isnan(den), np.nan, 0.0))


def unit(metric: str) -> str:
    for part, u in UNITS.items():
        if part in metric:
            return u
    return "1/s"
