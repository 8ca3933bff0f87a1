"""Score drop detection on recorded runs with known disturbances: found, both edges within the
tolerance (default 5 s), false drops. The corpus is every run with a truth file next to it:

- bench/drop_quality/runs/* (truth/<run>.tsv: one disturbance or none, smooth sysbench runs);
- tests/fixtures/diagnosis/* (<run>.truth.tsv: several disturbances in one run; bursty_long_drops is
  a bursty rate-limited run with a 45 s stall at 0 and a disk burst lasting to its end);
- resources/demo/disk-stall (two dd writers, 03:56:06-03:56:18 UTC, resources/demo/MANIFEST.md).

    python bench/detection_quality.py [--tolerance 5] [--root PATH] [--json]

--root runs another checkout's detector on the same runs (e.g. a `git worktree` of an older commit),
for before/after figures. A detected drop is a false drop when it overlaps no disturbance. A truth
row with a fourth column `latency` is a disturbance the throughput rode out (a rate-limited run):
it is found by a latency rise. Latency rises are never counted as false drops.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEMO_TRUTH = {"disk-stall": [("disk-burst", 1795319766.061, 1795319778.171)]}


@dataclass
class Scored:
    run: str
    disturbances: int
    found: int  # disturbances overlapped by a detected drop
    edges: int  # ... with both edges within the tolerance
    false_drops: int
    detected: list[tuple[float, float, str]]  # seconds from the benchmark start, kind


def corpus() -> list[tuple[Path, list[tuple[str, float, float]]]]:
    runs = []
    for folder in sorted((HERE / "drop_quality" / "runs").iterdir()):
        rows = dict(
            x.split("\t", 1)
            for x in (HERE / "drop_quality" / "truth" / f"{folder.name}.tsv").read_text().splitlines()
            if "\t" in x
        )
        truth = [(rows["scenario"], float(rows["start"]), float(rows["end"]))] if rows.get("start") else []
        runs.append((folder, truth))
    for tsv in sorted((ROOT / "tests" / "fixtures" / "diagnosis").glob("*.truth.tsv")):
        rows = [x.split("\t") for x in tsv.read_text().splitlines() if x]
        truth = [(f"{r[0]}:{r[3]}" if len(r) > 3 else r[0], float(r[1]), float(r[2])) for r in rows]
        runs.append((tsv.with_name(tsv.name.removesuffix(".truth.tsv")), truth))
    for name, truth in DEMO_TRUTH.items():
        runs.append((ROOT / "resources" / "demo" / name, truth))
    return runs


def detected(lib: object, folder: Path) -> tuple[int, list[Any], list[Any]]:
    """(run id, drops, latency rises) as the checkout's detector finds them."""
    from benchlens.app.analysis import run_drops as rd
    from benchlens.app.ingest import import_path
    from benchlens.app.rundata import LibraryRunData

    run_id = import_path(lib, folder).id  # type: ignore[arg-type]
    data = LibraryRunData(lib)  # type: ignore[arg-type]
    if hasattr(rd, "run_findings"):
        found = rd.run_findings(data, run_id)
        return run_id, [d.drop for d in found.drops], [r.drop for r in found.rises]
    return run_id, [d.drop for d in rd.run_drops(data, run_id)], []  # a checkout before latency rises


def score(lib: Any, folder: Path, truth: list[tuple[str, float, float]], tol: float) -> Scored:
    run_id, drops, rises = detected(lib, folder)
    run = lib.run(run_id)
    t0 = run.bench_start or 0.0
    hits = edges = 0
    # a disturbance that outlasts the benchmark ends, for the run, with its last report
    truth = [(n, a, min(b, run.bench_end or b)) for n, a, b in truth]
    for name, a, b in truth:  # "name:latency": the throughput rode it out, the latency did not
        hit = [d for d in (rises if name.endswith(":latency") else drops) if d.start < b and d.end > a]
        hits += bool(hit)
        edges += any(abs(d.start - a) <= tol and abs(d.end - b) <= tol for d in hit)
    false = sum(1 for d in drops if not any(d.start < b and d.end > a for _, a, b in truth))
    shown = [(round(d.start - t0, 1), round(d.end - t0, 1), getattr(d, "kind", "drop")) for d in [*drops, *rises]]
    return Scored(folder.name, len(truth), hits, edges, false, shown)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tolerance", type=float, default=5.0)
    ap.add_argument("--root", type=Path, default=ROOT, help="the checkout whose detector is scored")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.root.resolve()))
    from benchlens.app.store import Library

    with tempfile.TemporaryDirectory() as tmp:
        lib = Library(Path(tmp) / "q.sqlite")
        rows = [score(lib, f, truth, args.tolerance) for f, truth in corpus()]
        lib.close()
    totals = {k: sum(getattr(r, k) for r in rows) for k in ("disturbances", "found", "edges", "false_drops")}
    if args.json:
        print(json.dumps({"runs": [asdict(r) for r in rows], "totals": totals}, indent=1))
        return 0
    print(f"tolerance {args.tolerance:g} s; detector of {args.root}\n")
    print("| run | disturbances | found | edges within tolerance | false drops | detected (s from bench start) |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        det = "; ".join(f"{a:g}–{b:g}" + ("" if k == "drop" else f" ({k})") for a, b, k in r.detected) or "none"
        print(f"| {r.run} | {r.disturbances} | {r.found} | {r.edges} | {r.false_drops} | {det} |")
    print("\n" + ", ".join(f"{k} {v}" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
