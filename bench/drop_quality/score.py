"""Score drop detection and its diagnosis on the recorded corpus next to this file.

    python bench/drop_quality/score.py [--sensitivity normal] [--runs NAME ...] [--json]

Each folder in runs/ was recorded by record.sh or record_diagnosis.sh (`benchlens record` around
sysbench on a private MariaDB, one disturbance injected at a time written to truth/<run>.tsv, or
none). A truth file holds `scenario`, `start`/`end` (epoch s), the expected resource `class`
(app/analysis/relevance.CLASSES), `length` (short/long), `workload` (record_diagnosis.sh's names), and
for the pairs of runs that differ by one setting, `setting`. Every run is imported into a scratch
library the way `benchlens import` does it and read the way `benchlens drops` reads it
(app.analysis.run_drops.run_findings, top 5 entries).

Per disturbance: found = a detection (a drop; a drop or a latency rise for a workload spike and
for any other disturbance of the rate-limited workload) with both edges within the
tolerance of the truth (3 s; 5 s on the bursty workload; a truth that outlasts the benchmark ends
with it); the verdict, the ranked classes and the rank of the expected one, the top five entries;
and the first class of `benchlens explain` over the truth's window. A drop whose verdict proves a
cause also gives the cause's own window (app/analysis/mechanism.py: the history list growing for
a purge lag, else the stretch where the series that shows the cause stood at its drop level): its
edge errors are a column of their own, and `found_with_cause` counts a disturbance found by its
drop's edges or by its cause's window. A detected drop that overlaps no disturbance is a false drop (the quiet
runs have none to overlap; drops on the pairs' runs are counted apart: a run with
16 MB of buffer pool may well drop). Per pair (runs `pair-NAME-A`, `pair-NAME-B`): the
setting `benchlens diff` names first and the top differences per transaction.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchlens.app.analysis.diff import diff_runs
from benchlens.app.analysis.drops import SENSITIVITY, Drop
from benchlens.app.analysis.run_drops import RunDrop, run_findings
from benchlens.app.analysis.window import explain_window
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library

HERE = Path(__file__).resolve().parent
TOLERANCE = {"bursty": 5.0}  # seconds; every other workload 3 s
DEFAULT_TOLERANCE = 3.0
# found as a latency rise too: a rate-limited throughput rides these out, an unlimited one falls
RISE_SCENARIOS = {"client-spike"}
# the rate-limited workloads (record_diagnosis.sh): sysbench at a fixed rate rides load out
RATED = {"rated", "tpccrated"}
# a disturbance "falls" where the throughput's median over its window is at most this share of the
# median over the rest of the steady span: the size floor of the default sensitivity
# (drops.Sensitivity.floor). Found counts every disturbance; found_where_falls those only
FALLS = 1.0 - SENSITIVITY["normal"].floor


@dataclass
class Truth:
    scenario: str
    start: float | None
    end: float | None
    klass: str = ""
    length: str = ""
    workload: str = "smooth"
    setting: str = ""

    @property
    def tolerance(self) -> float:
        return TOLERANCE.get(self.workload, DEFAULT_TOLERANCE)


def read_truth(path: Path) -> Truth:
    rows = dict(line.split("\t", 1) for line in path.read_text().splitlines() if "\t" in line)
    start, end = rows.get("start"), rows.get("end")
    return Truth(
        rows["scenario"],
        float(start) if start else None,
        float(end) if end else None,
        klass=rows.get("class", "-").strip("-"),
        length=rows.get("length", "-").strip("-"),
        workload=rows.get("workload", "smooth"),
        setting=rows.get("setting", ""),
    )


@dataclass
class RunScore:
    run: str
    scenario: str
    klass: str
    length: str
    workload: str
    setting: str  # a run of a pair: its setting (it may drop: 16 MB of buffer pool does)
    truth: tuple[float, float] | None  # seconds from the benchmark start
    detected: list[tuple[float, float, str]]  # every drop and latency rise, s from bench start
    found: bool | None  # a detection with both edges within the tolerance (None: nothing injected)
    edges: tuple[float, float] | None  # the best detection's start and end error, s
    false_drops: int  # drops that overlap no disturbance
    verdict: str = ""
    classes: list[str] = field(default_factory=list)
    rank: int | None = None  # of the expected class in `classes`, 1 = first
    top5: list[str] = field(default_factory=list)
    explain_first: str = ""  # first class of `benchlens explain` over the truth's window
    cause_edges: tuple[float, float] | None = None  # the best detection's cause window's errors, s
    # the throughput's median over the truth's window against the rest of the steady span's (FALLS)
    fall: float | None = None


def _best(found: list[RunDrop], a: float, b: float) -> RunDrop | None:
    """The detection overlapping [a, b] whose edges are nearest the truth's."""
    hit = [d for d in found if d.drop.start < b and d.drop.end > a]
    return min(hit, key=lambda d: max(abs(d.drop.start - a), abs(d.drop.end - b)), default=None)


def score_run(lib: Library, folder: Path, truth: Truth, sensitivity: str = "normal") -> RunScore:
    data = LibraryRunData(lib)
    run_id = import_path(lib, folder).id
    run = lib.run(run_id)
    t0 = run.bench_start or run.start or 0.0  # a dool-only capture has no benchmark log: its own start
    f = run_findings(data, run_id, sensitivity=sensitivity, top=5)
    drops: list[Drop] = [d.drop for d in f.drops]
    shown = [(round(d.drop.start - t0, 1), round(d.drop.end - t0, 1), d.kind) for d in [*f.drops, *f.rises]]
    score = RunScore(
        folder.name,
        truth.scenario,
        truth.klass,
        truth.length,
        truth.workload,
        truth.setting,
        None,
        shown,
        None,
        None,
        0,
    )
    if truth.start is None or truth.end is None:
        score.false_drops = len(drops)
        return score
    # a disturbance outlasting the benchmark ends with it; one outlasting a dool capture (no
    # benchmark log: an ALTER TABLE finishing after it), with the capture
    a, b = truth.start, min(truth.end, run.bench_end or run.end or truth.end)
    score.truth = (round(a - t0, 1), round(b - t0, 1))
    score.false_drops = sum(1 for d in drops if not (d.start < b and d.end > a))
    # a rate-limited run rides load out: its disturbances show in the latency, or as drops when
    # severe; a workload spike, as a latency rise, or as a drop of the benchmark's own throughput
    # when it is not rate-limited (16 more clients took 77 % of the smooth workload's)
    either = truth.workload in RATED or truth.scenario in RISE_SCENARIOS
    best = _best([*f.drops, *f.rises] if either else f.drops, a, b)
    score.found = False
    if best is not None:
        score.edges = (round(best.drop.start - a, 1), round(best.drop.end - b, 1))
        score.found = max(abs(e) for e in score.edges) <= truth.tolerance
        score.verdict, score.classes = best.verdict(), best.classes()
        score.rank = score.classes.index(truth.klass) + 1 if truth.klass in score.classes else None
        score.top5 = [f"{c.ref.spec()} ({c.klass})" for c in best.explain]
        if best.cause is not None:
            score.cause_edges = (round(best.cause.start - a, 1), round(best.cause.end - b, 1))
    score.explain_first = next(iter(explain_window(data, run_id, (a, b), "absolute").classes()), "")
    score.fall = _fall(data.data(run_id, f.ref), (a, b), f.steady)
    return score


def _fall(
    got: tuple[np.ndarray, np.ndarray] | None, window: tuple[float, float], steady: tuple[float, float]
) -> float | None:
    """The throughput's median over the window against its median over the rest of the steady
    span (the warm-up and ramp-down left out), None where either has no sample."""
    if got is None:
        return None
    t, v = got
    fall = median_fall(t, v, window, steady)
    return round(fall, 2) if fall is not None else None


def median_fall(
    t: np.ndarray, v: np.ndarray, window: tuple[float, float], span: tuple[float, float] = (-math.inf, math.inf)
) -> float | None:
    """A throughput's median over the samples of `window` (a sample in it when the interval it
    averages ends in it) over the median of the other samples of `span`; None without both."""
    ok = np.isfinite(v) & (t >= span[0]) & (t <= span[1])
    inside = ok & (t > window[0]) & (t <= window[1])
    rest = ok & ~inside
    if not inside.any() or not rest.any():
        return None
    level = float(np.median(v[rest]))
    return float(np.median(v[inside])) / level if level > 0 else None


@dataclass
class PairScore:
    pair: str
    a: str
    b: str
    setting: str  # what the runs were recorded with (truth), "A → B"
    named_first: str  # the first configuration difference `diff` gives, or why there is none
    top: list[str]  # the first series differences, per transaction


def _per_trx(s: dict[str, Any]) -> str:
    def g(x: float | None) -> str:
        return "n/a" if x is None or not math.isfinite(x) else f"{x:.3g}"

    spec = ":".join(x for x in (s["source"], s["metric"], s["entity"]) if x)
    unit = f" {s['per_trx_unit']}" if s.get("per_trx_unit") else ""
    return f"{spec} ({s['class']}) {g(s['per_trx_a'])} → {g(s['per_trx_b'])}{unit}/trx"


def _first_setting(config: object) -> str:
    """The first setting of `diff --json`'s "config": a list of {name, a, b} (the contract in
    PRODUCT.md) or {"changed": [...], "only_in_one": [...]} with each side a value or
    {"value", "normalised", ...} (what diff gives while the configuration import lands)."""
    if config is None:
        return "diff gives no configuration differences (no 'config' in diff --json)"
    listed = config if isinstance(config, list) else []
    if isinstance(config, dict):
        listed = [*config.get("changed", []), *config.get("only_in_one", [])]
    if not listed:
        return f"no setting named (diff --json config: {json.dumps(config)[:160]})"

    def value(side: object) -> str:
        return str(side.get("value")) if isinstance(side, dict) else str(side)

    first = listed[0]
    return f"{first.get('name')} {value(first.get('a'))} → {value(first.get('b'))}"


def score_pair(lib: Library, name: str, a: Path, b: Path, truth: tuple[Truth, Truth]) -> PairScore:
    ids = [import_path(lib, p).id for p in (a, b)]
    result = diff_runs(LibraryRunData(lib), ids[0], ids[1]).as_json()
    named = _first_setting(result.get("config"))
    listed = result.get("series")
    series = [s for s in listed if isinstance(s, dict)] if isinstance(listed, list) else []
    per_trx = [s for s in series if s.get("per_trx_unit") is not None]  # levels have no per-trx value
    return PairScore(
        name, a.name, b.name, f"{truth[0].setting} → {truth[1].setting}", named, [_per_trx(s) for s in per_trx[:5]]
    )


def pairs(folders: list[Path]) -> dict[str, tuple[Path, Path]]:
    """pair-NAME-A and pair-NAME-B, A the first by name."""
    groups: dict[str, list[Path]] = {}
    for p in folders:
        if p.name.startswith("pair-"):
            groups.setdefault(p.name.rsplit("-", 1)[0].removeprefix("pair-"), []).append(p)
    return {k: (v[0], v[1]) for k, v in sorted(groups.items()) if len(v) == 2}


def _named(p: PairScore) -> bool:
    """diff names the pair's setting first (option names spelt with - or _ alike)."""
    option = p.setting.split(" → ")[0].split("=")[0].replace("-", "_")
    return p.named_first.replace("-", "_").startswith(option + " ")


def _cause_found(r: RunScore) -> bool:
    """The drop's cause window has both edges within the tolerance."""
    return r.cause_edges is not None and max(abs(e) for e in r.cause_edges) <= TOLERANCE.get(
        r.workload, DEFAULT_TOLERANCE
    )


def totals(rows: list[RunScore], pair_rows: list[PairScore]) -> dict[str, object]:
    disturbed = [r for r in rows if r.found is not None]
    first = sum(r.rank == 1 for r in disturbed)
    falls = [r for r in disturbed if r.fall is not None and r.fall <= FALLS]
    return {
        "disturbances": len(disturbed),
        "found": sum(bool(r.found) for r in disturbed),
        "falls": len(falls),
        "found_where_falls": sum(bool(r.found) for r in falls),
        "found_with_cause": sum(bool(r.found) or _cause_found(r) for r in disturbed),
        "class_first": f"{first}/{len(disturbed)}",
        "class_first_share": round(first / len(disturbed), 3) if disturbed else None,
        "class_in_top3": f"{sum(r.rank is not None and r.rank <= 3 for r in disturbed)}/{len(disturbed)}",
        "explain_same_first_class": f"{sum(bool(r.classes) and r.explain_first == r.classes[0] for r in disturbed)}"
        f"/{len(disturbed)}",
        "false_drops_on_quiet_runs": sum(r.false_drops for r in rows if r.found is None and not r.setting),
        "drops_on_pair_runs": sum(r.false_drops for r in rows if r.setting),
        "false_drops_beside_disturbances": sum(r.false_drops for r in disturbed),
        "pairs_setting_named_first": f"{sum(_named(p) for p in pair_rows)}/{len(pair_rows)}",
    }


def score(
    names: list[str] | None = None, sensitivity: str = "normal", no_log: bool = False
) -> tuple[list[RunScore], list[PairScore]]:
    """The runs' scores and the pairs'. `no_log`: only the runs with a benchmark log, scored
    without it (their throughput the server's own rate, as in a folder of OS and server counters
    alone), and no pairs."""
    folders = sorted(p for p in (HERE / "runs").iterdir() if p.is_dir() and (not names or p.name in names))
    truth = {f.name: read_truth(HERE / "truth" / f"{f.name}.tsv") for f in folders}
    with tempfile.TemporaryDirectory() as tmp:
        if no_log:
            folders = [_without_log(f, Path(tmp)) for f in folders if (f / "bench.log").exists()]
        lib = Library(Path(tmp) / "quality.sqlite")
        try:
            rows = [score_run(lib, f, truth[f.name], sensitivity) for f in folders]
            lib2 = Library(Path(tmp) / "pairs.sqlite")  # a pair's runs under their own names
            try:
                pair_rows = [
                    score_pair(lib2, k, a, b, (truth[a.name], truth[b.name]))
                    for k, (a, b) in (pairs(folders) if not no_log else {}).items()
                ]
            finally:
                lib2.close()
        finally:
            lib.close()
    return rows, pair_rows


def _without_log(folder: Path, tmp: Path) -> Path:
    """A copy of a run folder under tmp without its benchmark log."""
    out = tmp / "no_log" / folder.name
    shutil.copytree(folder, out, ignore=shutil.ignore_patterns("bench.log"))
    return out


def _cell(r: RunScore) -> list[str]:
    mark: Callable[[bool | None], str] = lambda x: {None: "", True: "yes", False: "**no**"}[x]  # noqa: E731
    edges = f"{r.edges[0]:+g} / {r.edges[1]:+g}" if r.edges else ""
    truth = f"{r.truth[0]:g}–{r.truth[1]:g}" if r.truth else "none"
    truth += f" (x{r.fall:g})" if r.fall is not None else ""
    det = "; ".join(f"{a:g}–{b:g}" + ("" if k == "drop" else f" ({k})") for a, b, k in r.detected) or "none"
    rank = "" if r.found is None else (str(r.rank) if r.rank else "**–**")
    cause = f"{r.cause_edges[0]:+g} / {r.cause_edges[1]:+g}" if r.cause_edges else ""
    return [r.run, r.klass or "", f"{r.length} {r.workload}".strip(), truth, det, mark(r.found), edges, cause,
            rank, ", ".join(r.classes), r.explain_first, str(r.false_drops)]  # fmt: skip


def print_report(rows: list[RunScore], pair_rows: list[PairScore], sensitivity: str) -> None:
    print(
        f"sensitivity {sensitivity}; edge tolerance 3 s (5 s bursty); times in s from the benchmark start "
        "(the capture's without a benchmark log)\n"
    )
    head = ["run", "class", "kind", "truth", "detected", "found", "edges Δ start / end", "cause window Δ",
            "class rank", "classes ranked", "explain 1st", "false drops"]  # fmt: skip
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for r in rows:
        print("| " + " | ".join(_cell(r)) + " |")
    print()
    for r in rows:
        if r.found is not None:
            print(f"{r.run}: {r.verdict or '(not found)'}")
            for entry in r.top5:
                print(f"    {entry}")
    for p in pair_rows:
        print(f"\npair {p.pair}: {p.a} vs {p.b} (recorded with {p.setting})\n    diff names first: {p.named_first}")
        for entry in p.top:
            print(f"    {entry}")
    print("\n" + ", ".join(f"{k} {v}" for k, v in totals(rows, pair_rows).items()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sensitivity", default="normal", choices=("low", "normal", "high"))
    ap.add_argument("--runs", nargs="*", help="only these runs (folder names)")
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--no-bench-log",
        action="store_true",
        help="score the runs that have a benchmark log without it (the server's own rate as throughput)",
    )
    args = ap.parse_args(argv)
    rows, pair_rows = score(args.runs, args.sensitivity, args.no_bench_log)
    if args.json:
        out = {"runs": [asdict(r) for r in rows], "pairs": [asdict(p) for p in pair_rows]}
        print(json.dumps({**out, "totals": totals(rows, pair_rows)}, indent=1, ensure_ascii=False))
        return 0
    print_report(rows, pair_rows, args.sensitivity)
    return 0


if __name__ == "__main__":
    sys.exit(main())
