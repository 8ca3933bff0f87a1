"""Synthetic libraries for the heatmap case (issue #25), written straight into a library as
bench/ui_speed.py writes its runs: no host here has 256 CPUs or 20 disks.

- `many_cpus`: mpstat -P ALL of CPUS CPUs (%usr and %idle per CPU, and `all`) at 1 s; every CPU
  ~30 % busy with noise, and HOT of them at 90-99 % for HOT_S seconds from the middle.
- `many_disks`: iostat -x of DISKS devices (%util, w/s, r/s) at 1 s; one of them at 100 %util
  for a stretch, the others ~10 %.

  python bench/heatmap_data.py OUT.sqlite [cpus|disks] [SECONDS]
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlens.app.store import Library
from benchlens.app.store.writer import SeriesSink
from benchlens.importers._types import Block

CPUS, HOT, HOT_S = 256, 32, 120
DISKS = 20


def _run(lib: Library, name: str, fmt: str, blocks: Iterable[Block], units: dict[str, str]) -> int:
    txn = lib.begin_import()
    run = txn.upsert_run(f"/bench/{name}", name, None)
    sid = txn.add_source(run, f"{fmt}.log", 1, 1, fmt)
    sink = SeriesSink(txn, sid, units)
    sink.add(blocks)
    sink.close()
    txn.finish_source(sid, "0" * 64, "", "", [], {})
    txn.finish_run(run, {})
    txn.commit()
    return run


def many_cpus(lib: Library, n: int, name: str = "256-cpus", cpus: int = CPUS, hot: int = HOT, seed: int = 1) -> int:
    """One CPU at a time (256 x 24 h at 1 s is 22 million values a metric): %usr and %idle per
    CPU, `all` their mean with %sys and %iowait."""
    rng = np.random.default_rng(seed)
    t = 1.79e9 + np.arange(n, dtype=np.float64)
    at = slice(n // 2, min(n, n // 2 + HOT_S))
    first = cpus // 4  # the hot ones: a block of `hot` CPUs from a quarter in
    total = np.zeros(n)

    def blocks() -> Iterator[Block]:
        for c in range(cpus):
            busy = np.clip(rng.normal(30, 6, n), 0, 100)
            if first <= c < first + hot:
                busy[at] = rng.uniform(90, 99, at.stop - at.start)
            busy = busy.round(2)
            total[:] += busy
            yield Block(str(c), t, {"%usr": (busy * 0.8).round(2), "%idle": (100 - busy).round(2)})
        every = (total / cpus).round(2)
        usr = (every * 0.8).round(2)
        yield Block(
            "all", t, {"%usr": usr, "%sys": (every - usr).round(2), "%iowait": np.zeros(n), "%idle": 100 - every}
        )

    return _run(lib, name, "mpstat", blocks(), dict.fromkeys(("%usr", "%sys", "%iowait", "%idle"), "%"))


def many_disks(lib: Library, n: int, name: str = "20-disks", disks: int = DISKS, seed: int = 2) -> int:
    rng = np.random.default_rng(seed)
    t = 1.79e9 + np.arange(n, dtype=np.float64)
    util = np.clip(rng.normal(10, 3, (disks, n)), 0, 100)
    util[7, n // 3 : 2 * n // 3] = 100.0  # sdh: one member of the stripe saturated
    blocks = []
    for d in range(disks):
        iops = (util[d] * 20 + rng.normal(0, 5, n)).clip(0).round(2)
        blocks.append(
            Block(f"sd{chr(ord('a') + d)}", t, {"%util": util[d].round(2), "w/s": iops, "r/s": (iops / 4).round(2)})
        )
    return _run(lib, name, "iostat", blocks, {"%util": "%", "w/s": "1/s", "r/s": "1/s"})


def main() -> None:
    out, what = Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "cpus"
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 600
    with Library(out) as lib:
        print((many_cpus if what == "cpus" else many_disks)(lib, n))


if __name__ == "__main__":
    main()
