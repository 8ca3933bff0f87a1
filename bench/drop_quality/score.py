"""Score the drop detector and its explanations on the recorded corpus next to this file.

    python bench/drop_quality/score.py [--sensitivity normal] [--tolerance 3] [--json]

Each folder in runs/ was recorded by record.sh (`benchlens record` around sysbench, one
disturbance injected by disturb.sh at a time written to truth/<run>.tsv, or none for the quiet
runs). Every run is imported into a scratch library the way `benchlens import` does it, and its
drops are detected and explained the way `benchlens drops` does it (app.analysis.run_drops).

Scoring follows change-point benchmarks: a detected drop matches a true disturbance when both its
start and its end are within the tolerance (seconds) of the true ones; each truth matches at most
one detection. Precision, recall and F1 count every detection; the quiet runs are also reported
on their own (the target is no false drop of 5 s or more there). For each matched drop the
explanation's top five entries are mapped to resources (disk, cpu, waits, buffer pool) and the
report says whether the disturbed resource is among them (EXPECTED).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchlens.app.analysis.explain import quantity
from benchlens.app.analysis.run_drops import RunDrop, run_drops
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library

HERE = Path(__file__).resolve().parent
# The resource each disturbance loads; the explanation should name it in its top five.
# A global read lock leaves no counter of its own on MariaDB 10.11 (the metadata-lock instrument is
# off by default): its footprint is threads inside the server that do not run (Threads_running up,
# CPU idle), or lock and flush counters. A buffer pool too small for the data shows as its own
# counters or as the reads from disk its misses cause.
EXPECTED = {
    "disk-burst": {"disk"},
    "cpu-hogs": {"cpu"},
    "read-lock": {"waits"},
    "small-pool": {"buffer pool", "disk reads"},
}
DISK_VMSTAT = {"bi", "bo", "wa"}
CPU_VMSTAT = {"r", "cs", "in"}
READS = {"r/s", "rkB/s", "rrqm/s", "r_await", "rareq-sz", "bi"}


def resource(ref: SeriesRef) -> str:
    """The machine resource a series measures, as a reader of the explanation would name it."""
    name = f"{ref.metric} {ref.entity}".lower()
    share = quantity(ref)
    if share.startswith("cpu "):  # vmstat, iostat's avg-cpu and mpstat columns
        return "disk" if share == "cpu iowait" else "cpu"
    if ref.format in ("iostat", "vmstat") and ref.metric in READS:
        return "disk reads"
    if ref.format == "iostat" or (ref.format == "vmstat" and ref.metric in DISK_VMSTAT):
        return "disk"
    if ref.format == "mpstat" or (ref.format == "vmstat" and ref.metric in CPU_VMSTAT):
        return "cpu"
    if "buffer_pool" in name or "buf_pool" in name or "buffer pool" in name or "pages_read" in name:
        return "buffer pool"
    if "lock" in name or "mdl" in name or "flush" in name or ref.metric == "Threads_running":
        return "waits"
    if ref.format in ("innodb_status", "innodb_mutex", "global_status", "perfschema"):
        return "server"
    return ref.format


@dataclass
class Truth:
    scenario: str
    start: float | None
    end: float | None


def read_truth(path: Path) -> Truth:
    rows = dict(line.split("\t", 1) for line in path.read_text().splitlines() if "\t" in line)
    start, end = rows.get("start"), rows.get("end")
    return Truth(rows["scenario"], float(start) if start else None, float(end) if end else None)


def matches(d: RunDrop, truth: Truth, tol: float) -> bool:
    assert truth.start is not None and truth.end is not None
    return abs(d.drop.start - truth.start) <= tol and abs(d.drop.end - truth.end) <= tol


@dataclass
class RunScore:
    run: str
    scenario: str
    truth: tuple[float, float] | None  # seconds from the benchmark start
    detected: list[tuple[float, float, str]]
    tp: int
    fp: int
    fn: int
    false_5s: int  # unmatched detections of 5 s or more
    top5: list[str]
    named: bool | None  # the disturbed resource is in the matched drop's top five


def score_run(lib: Library, folder: Path, truth: Truth, sensitivity: str, tol: float) -> RunScore:
    report = import_path(lib, folder)
    found = run_drops(LibraryRunData(lib), report.id, sensitivity=sensitivity, top=5)
    matched = next((d for d in found if truth.start is not None and matches(d, truth, tol)), None)
    t0 = lib.run(report.id).bench_start or 0.0
    expected = EXPECTED.get(truth.scenario)
    top = matched.explain if matched else []
    return RunScore(
        run=folder.name,
        scenario=truth.scenario,
        truth=None if truth.start is None or truth.end is None else (truth.start - t0, truth.end - t0),
        detected=[(d.drop.start - t0, d.drop.end - t0, d.drop.label()) for d in found],
        tp=int(matched is not None),
        fp=len(found) - int(matched is not None),
        fn=int(truth.start is not None and matched is None),
        false_5s=sum(1 for d in found if d is not matched and d.drop.duration >= 5.0),
        top5=[f"{c.ref.spec()} ({resource(c.ref)})" for c in top],
        named=None if expected is None or matched is None else bool(expected & {resource(c.ref) for c in top}),
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sensitivity", default="normal", choices=("low", "normal", "high"))
    ap.add_argument("--tolerance", type=float, default=3.0, help="boundary tolerance, seconds (default 3)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    folders = sorted(p for p in (HERE / "runs").iterdir() if p.is_dir())
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library(Path(tmp) / "quality.sqlite")
        for f in folders:
            rows.append(
                score_run(lib, f, read_truth(HERE / "truth" / f"{f.name}.tsv"), args.sensitivity, args.tolerance)
            )
        lib.close()
    tp, fp, fn = (sum(getattr(r, k) for r in rows) for k in ("tp", "fp", "fn"))
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    explained = [r.named for r in rows if r.named is not None]
    totals = {
        "precision": round(precision, 3),
        "recall": round(recall, 3),
        "f1": round(f1, 3),
        "false_drops_5s_on_quiet_runs": sum(r.false_5s for r in rows if r.scenario == "quiet"),
        "explanation_names_resource": f"{sum(explained)}/{len(explained)}",
    }
    if args.json:
        print(json.dumps({"runs": [asdict(r) for r in rows], "totals": totals}, indent=1))
        return 0
    print(f"sensitivity {args.sensitivity}, boundary tolerance {args.tolerance:g} s; times in s from benchmark start\n")
    print(f"| run | truth | detected | TP | FP | FN | resource in top 5 |\n|{'---|' * 7}")
    for r in rows:
        det = "; ".join(f"{a:.0f}–{b:.0f} ({lbl})" for a, b, lbl in r.detected) or "none"
        truth = f"{r.truth[0]:.1f}–{r.truth[1]:.1f}" if r.truth else "none"
        named = {None: "", True: "yes", False: "no"}[r.named]
        print(f"| {r.run} | {truth} | {det} | {r.tp} | {r.fp} | {r.fn} | {named} |")
    print()
    for r in rows:
        if r.top5:
            print(f"{r.run}: " + ", ".join(r.top5))
    print("\n" + ", ".join(f"{k} {v}" for k, v in totals.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
