"""/proc/vmstat taken in a loop (pt-stalk's `-procvmstat` file): `TS <epoch> …` marker lines,
each followed by the raw file (`name value` per line).

Variants covered (fixtures in tests/fixtures/procvmstat, captured over the same seconds as the
meminfo loop): kernel 6.x (about 190 names); any kernel's name set (names come and go between
kernels: each is a series of its own).

Metrics (entity ""):
- the event counters (`pgpgin`, `pgpgout`, `pswpin`, `pswpout`, `pgfault`, `pgmajfault`,
  `pgsteal_*`, `pgscan_*`, `numa_*`, `thp_*`, `nr_dirtied`, `nr_written` …) as per-second rates
  named `<name>/s` (unit 1/s; `pgpgin`/`pgpgout` count KiB, so their rates are KiB/s like vmstat's
  `bi`/`bo`, unit `kB/s`), between two snapshots at the later one's time; a counter going
  down (reboot) or missing on one side gives no rate there, with a warning;
- the gauges, as printed at the snapshot's time: every `nr_*` (pages: `nr_free_pages`,
  `nr_dirty`, `nr_writeback`, `nr_dirty_threshold` …) except the cumulative ones listed in
  COUNTED, and `workingset_nodes`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._proc import collect, key_values, marked
from benchlens.importers._types import Block, Context

name = "procvmstat"

# nr_* names that are event counts, not levels (mm/vmstat.c: vmstat_text)
COUNTED = frozenset(
    {
        "nr_vmscan_write",
        "nr_vmscan_immediate_reclaim",
        "nr_dirtied",
        "nr_written",
        "nr_throttled_written",
        "nr_foll_pin_acquired",
        "nr_foll_pin_released",
    }
)
GAUGES_OTHER = frozenset({"workingset_nodes"})
RATE_UNITS = {"pgpgin": "kB/s", "pgpgout": "kB/s"}
_LINE = re.compile(r"^([a-z][a-z0-9_]*) (\S+)\s*$")
_SNIFF = re.compile(r"^(?:nr_free_pages|nr_dirty|pgpgin|pgpgout|pswpin|pgfault) \d+$", re.M)


def sniff(head: str) -> float:
    if len(set(m.split()[0] for m in _SNIFF.findall(head))) < 3:
        return 0.0
    return marked(head)


def is_gauge(key: str) -> bool:
    return (key.startswith("nr_") and key not in COUNTED) or key in GAUGES_OTHER


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    snaps = collect(chunks, ctx, _snapshot)
    if not len(snaps):
        ctx.warn(None, "no /proc/vmstat snapshot after a `TS` marker", kind="format")
        return
    keys = snaps.keys("")
    gauges = [k for k in keys if is_gauge(k)]
    if gauges:
        for k in gauges:
            ctx.units.setdefault(k, "pages" if k.startswith("nr_") else "")
        yield Block("", np.array(snaps.times), {k: snaps.column("", k) for k in gauges})
    counters = [k for k in keys if not is_gauge(k)]
    if len(snaps) < 2 or not counters:
        if counters:
            ctx.warn(None, "one /proc/vmstat snapshot: rates need two", kind="format")
        return
    yield snaps.host_rates(counters, lambda k: RATE_UNITS.get(k, "1/s"), ctx)


def _snapshot(lines: list[str], first: int, ctx: Context) -> dict[tuple[str, str], float]:
    return {("", m.group(1)): x for m, x in key_values(lines, first, ctx, _LINE, "/proc/vmstat")}
