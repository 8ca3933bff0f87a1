"""Loading many series of one run: one query each (Library.load) against a few for all
(Library.load_many), issue #25: `python bench/batch_load.py [LIBRARY] [SECONDS]`.

Without LIBRARY it writes one to a temp folder (bench/heatmap_data.py: 256 CPUs x SECONDS at 1 s,
default 86,400); LIBRARY may be a file or a `mysql://` URL (the run `256-cpus` is written there
when missing). Loads every CPU's %idle and `all` (257 series) both ways, best of 5, and prints
series per second, MB/s of BLOB bytes, and each as a ratio to a reference run in the same process:
numpy reading as many bytes from a file in the page cache (the floor of any reader). On the shared
2-core machine the absolute figures move 2-3x between runs; the ratios move less.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.heatmap_data import many_cpus
from bench.timing import best
from benchlens.app.store import Library

N = 86_400
ROUNDS = 5


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.isdigit()]
    n = next((int(a) for a in sys.argv[1:] if a.isdigit()), N)
    d = Path(tempfile.mkdtemp())
    target = args[0] if args else str(d / "batch.sqlite")
    with Library(target) as lib:
        run = next((r.id for r in lib.runs() if r.name == "256-cpus"), None)
        if run is None:
            t = time.perf_counter()
            run = many_cpus(lib, n)
            print(f"wrote 256 CPUs x {n:,} s in {time.perf_counter() - t:.1f} s")
        series = [s for s in lib.series(run) if s.metric == "%idle"]
        ids = [i for s in series for i in s.ids]
        marks = ", ".join("?" * len(ids))
        blob = lib.conn.execute(f"SELECT sum(length(v)) FROM chunks WHERE series_id IN ({marks})", ids).fetchone()[0]
        times = lib.conn.execute(
            f"SELECT sum(length(t)), count(*) FROM times WHERE id IN "
            f"(SELECT DISTINCT times_id FROM chunks WHERE series_id IN ({marks}))",
            ids,
        ).fetchone()
        total = int(blob) + int(times[0])
        floor = d / "floor.bin"
        floor.write_bytes(np.zeros(total // 8).tobytes())
        base = best(lambda: np.fromfile(floor, "<f8"), ROUNDS)
        one = best(lambda: [lib.load(s) for s in series], ROUNDS)
        many = best(lambda: lib.load_many(series), ROUNDS)
        print(
            f"{lib.name}: {len(series)} series, {total / 1e6:.0f} MB of BLOBs ({times[1]} time rows); "
            f"numpy reading as many bytes: {base * 1000:.0f} ms"
        )
        for name, took in (("one query each", one), ("load_many", many)):
            print(
                f"  {name:15s} {took * 1000:7.0f} ms  {len(series) / took:8.0f} series/s  "
                f"{total / took / 1e6:6.0f} MB/s  {took / base:5.1f}x numpy"
            )
        print(f"  load_many / one query each: {many / one:.2f}")


if __name__ == "__main__":
    main()
