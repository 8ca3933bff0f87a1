"""Export speed against the window: `python bench/export_speed.py [RUNS] [--keep DIR]` (offscreen).

Builds a library of RUNS (default 10) nightly-style runs of 24 h at 1 s (86,400 points per
series): sysbench tps, latency p95 and p99 and threads, vmstat us/sy/wa, iostat w/s and r/s of
one disk. The values are synthetic but shaped like the real captures in bench/drop_quality: noise
around a level that differs per run, a checkpoint-flush sawtooth on the disk, latency rising when
throughput falls, and 1-sample stalls (tps to 0, latency x20) that must stay visible in the
figure. Their default comparison is 4 panels and 80 lines (throughput 1, latency 2, CPU 3, disk
IOPS 2 per run).

It then times, each from a fresh session (the series loaded again):
- the window: the main window opened on the runs (`benchlens screenshot`'s path), shown and
  grabbed to an image;
- the export: the default figure built (series, drops) and drawn to a 1200x675 PNG
  (`benchlens export --size blog`), with the drawing alone timed too;
and prints both and their ratio (target: export <= window; issue 12 measured 6.0 s against 1.5 s).
Each time is wall clock and the main thread's CPU time: other jobs on the shared 2-core machine
stretch the wall clock, the CPU time is what the figure costs. `--keep DIR` writes the PNGs there
to compare by eye.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchlens.app.store import Library
from benchlens.app.store.writer import SeriesSink
from benchlens.importers._types import Block

N = 86_400
START = 1.79e9


def run_series(rng: np.random.Generator, k: int) -> dict[str, dict[tuple[str, str], np.ndarray]]:
    """One night's series by source, (metric, entity) -> values."""
    t = np.arange(N, dtype=np.float64)
    level = 900 + 60 * k  # the nightly builds differ a little
    flush = (t % 600) / 600  # a checkpoint flush every 10 minutes
    tps = level * (1 - 0.15 * flush**6) + rng.normal(0, level * 0.03, N)
    stalls = rng.integers(0, N, 12)
    tps[stalls] = 0.0  # 1 s stalls
    tps = np.maximum(tps, 0).round(2)
    p95 = 8.0 * level / np.maximum(tps, level * 0.05) + np.abs(rng.normal(0, 0.6, N))
    p99 = p95 * 1.6 + np.abs(rng.normal(0, 1.5, N))
    us = np.clip(55 + 10 * k / 9 + rng.normal(0, 4, N) - 30 * (tps == 0), 0, 100).round(0)
    sy = np.clip(14 + rng.normal(0, 2, N), 0, 100).round(0)
    wa = np.clip(3 + 25 * flush**8 + rng.normal(0, 1, N), 0, 100).round(0)
    ws = np.maximum(tps * 2.1 * (1 + 2.5 * flush**8) + rng.normal(0, 80, N), 0).round(1)
    rs = np.maximum(120 + rng.normal(0, 30, N), 0).round(1)
    return {
        "sysbench": {
            ("tps", ""): tps,
            ("thds", ""): np.full(N, 32.0),
            ("lat_ms", "95"): p95.round(2),
            ("lat_ms", "99"): p99.round(2),
        },
        "vmstat": {("us", ""): us, ("sy", ""): sy, ("wa", ""): wa},
        "iostat": {("w/s", "vda"): ws, ("r/s", "vda"): rs},
    }


UNITS = {"tps": "1/s", "thds": "threads", "lat_ms": "ms", "us": "%", "sy": "%", "wa": "%", "w/s": "1/s", "r/s": "1/s"}


def make_library(path: Path, runs: int) -> list[str]:
    rng = np.random.default_rng(12)
    names = []
    with Library(path) as lib:
        for k in range(runs):
            name = f"nightly-{k + 1:02d}"
            txn = lib.begin_import()
            run = txn.upsert_run(f"/bench/{name}", name, None)
            t = START + k * 2 * N + np.arange(N, dtype=np.float64)
            for source, series in run_series(rng, k).items():
                sid = txn.add_source(run, f"{source}.log", 1, 1, source)
                sink = SeriesSink(txn, sid, UNITS)
                for (metric, entity), v in series.items():
                    sink.add([Block(entity, t, {metric: v})])
                sink.close()
                txn.finish_source(sid, "0" * 64, "", "", [], {})
            txn.finish_run(run, {})
            txn.commit()
            names.append(name)
    return names


def timed(what: Callable[[], Any]) -> tuple[Any, float, float]:
    t, c = time.perf_counter(), time.thread_time()
    out = what()
    return out, time.perf_counter() - t, time.thread_time() - c


def window(app: Any, db: Path, names: list[str], out: Path) -> None:
    from benchlens.app.ui.launch import build_window

    win = build_window(db, runs=names)
    win.resize(1400, 900)  # type: ignore[attr-defined]
    win.show()  # type: ignore[attr-defined]
    for _ in range(5):
        app.processEvents()
    win.grab().save(str(out))  # type: ignore[attr-defined]
    win.close()  # type: ignore[attr-defined]
    win.session.close()  # type: ignore[attr-defined]


def export(db: Path, names: list[str], out: Path) -> float:
    """Build the default figure and write the PNG; returns the CPU time of the drawing alone."""
    from benchlens.app.figure import Comparison, default_layout, figure_of, findings_of
    from benchlens.app.render import SIZES, to_image
    from benchlens.app.rundata import LibraryRunData

    with Library(db) as lib:
        data = LibraryRunData(lib)
        ids = [lib.run(n).id for n in names]
        found = findings_of(data, ids)  # as `benchlens export`: once, for the layout and the marks
        fig = figure_of(data, Comparison(ids, default_layout(data, ids, found)), None, found)
    image, _, draw_cpu = timed(lambda: to_image(fig, SIZES["blog"]))
    image.save(str(out))
    return float(draw_cpu)


def main() -> None:
    from benchlens.app.ui.launch import gui_app

    args = sys.argv[1:]
    keep = Path(args[args.index("--keep") + 1]) if "--keep" in args else None
    runs = next((int(a) for a in args if a.isdigit()), 10)
    app = gui_app(offscreen=True)
    d = Path(tempfile.mkdtemp())
    out = keep or d
    out.mkdir(parents=True, exist_ok=True)
    names = make_library(d / "bench.sqlite", runs)
    export(d / "bench.sqlite", names[:1], d / "warm.png")  # fonts and imports loaded once, for both
    _, win_wall, win_cpu = timed(lambda: window(app, d / "bench.sqlite", names, out / "window.png"))
    draw_cpu, exp_wall, exp_cpu = timed(lambda: export(d / "bench.sqlite", names, out / "export.png"))
    print(f"{runs} runs x 24 h at 1 s, default layout, 1200x675 PNG:")
    print(f"  window screenshot {win_wall:.2f} s ({win_cpu:.2f} cpu)")
    print(f"  export            {exp_wall:.2f} s ({exp_cpu:.2f} cpu), of which drawing {draw_cpu:.2f} cpu")
    print(f"  export / window   {exp_wall / win_wall:.2f} wall, {exp_cpu / win_cpu:.2f} cpu")


if __name__ == "__main__":
    main()
