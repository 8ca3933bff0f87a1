"""Nightly run folders for the trend tests: a sysbench log (30 reports at 1 s) and the run's
record (benchlens-run.json: its times, host and tags), one folder per night, imported for real."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from benchlens.app.ingest import import_path
from benchlens.app.store import Library

DAY = 86400.0
T0 = 1795312800.0  # 2026-11-22 00:00 UTC
HEAD = (
    "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\nRunning the test with following options:\n"
    "Number of threads: {thds}\n\nThreads started!\n\n"
)
LINE = (
    "[ {s}s ] thds: {thds} tps: {tps:.2f} qps: {qps:.2f} (r/w/o: {r:.2f}/{w:.2f}/{o:.2f}) "
    "lat (ms,95%): {lat:.2f} err/s: 0.00 reconn/s: 0.00\n"
)


def night_folder(root: Path, name: str, day: int, level: float, tags: dict[str, str], thds: int = 8) -> Path:
    rng = np.random.default_rng(day)
    folder = root / name
    folder.mkdir(parents=True)
    start = T0 + day * DAY
    lines = [HEAD.format(thds=thds)]
    for s in range(1, 31):
        tps = level * (1 + rng.normal(0, 0.01)) * (0.5 if s <= 2 else 1.0)
        lines.append(
            LINE.format(s=s, thds=thds, tps=tps, qps=20 * tps, r=14 * tps, w=4 * tps, o=2 * tps, lat=4000 / tps)
        )
    (folder / "sysbench.log").write_text("".join(lines))
    record = {
        "format": "benchlens-run",
        "version": 1,
        "host": "lab1",
        "utc_offset": 0,
        "start": start,
        "bench_start": start + 1,
        "bench_end": start + 31,
        "end": start + 32,
        "tags": tags,
    }
    (folder / "benchlens-run.json").write_text(json.dumps(record))
    return folder


def nightly(lib: Library, root: Path, levels: list[float], thds: int = 8, prefix: str = "n") -> list[int]:
    """One imported run per level, a night apart, tagged with a version that changes every 10."""
    ids = []
    for i, level in enumerate(levels):
        folder = night_folder(root, f"{prefix}-{i:03d}", i, level, {"version": f"1.{i // 10}"}, thds)
        ids.append(import_path(lib, folder).id)
    return ids
