"""Accuracy of trend's change points on synthetic nightly histories, and of the packages measured
before ours was written (app/analysis/changepoints.py says why it was chosen).

A history: 300 runs, each a 180 s throughput series at 1 s (a 15 s warm-up ramp, 3 % noise from
second to second) reduced to its steady-state median as `benchlens trend` does it
(app/analysis/runstats.py). From run to run the level varies by CV (1-5 %); 2-4 steps of 3-10 %
(up or down) at random places at least 20 runs apart; 10 % of the runs have a 20-40 s drop to
half inside them; 2 % are outliers (15-40 % off their level: a broken run).

A step is found when a change point lies within `--within` runs (5) of it; a change point near no
step is a false change, counted per 100 runs. Rows: by CV and by step size; the target is at
CV <= 3 % and steps >= 5 %: >= 90 % found and <= 1 false change per 100 runs.

    python bench/trend_accuracy.py [--histories 30] [--detectors benchlens,otava,spa] [--markdown]

`otava` (pip install apache-otava) and `spa` (pip install signal-processing-algorithms) are run
when importable (a scratch venv: they are not benchlens dependencies); each gets Otava's defaults
(window 50, p 0.001), spa its permutation test at p 0.01 (its floor with 100 permutations is 1/101).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlens.app.analysis.changepoints import detect
from benchlens.app.analysis.runstats import run_stats

RUNS = 300
SECONDS = 180
CVS = (0.01, 0.02, 0.03, 0.04, 0.05)


@dataclass
class History:
    values: np.ndarray
    steps: list[tuple[int, float]]  # (first run after the step, relative size)


def history(rng: np.random.Generator, cv: float) -> History:
    n_steps = int(rng.integers(2, 5))
    while True:
        at = np.sort(rng.choice(np.arange(10, RUNS - 10), n_steps, replace=False))
        if np.all(np.diff(at) >= 20):
            break
    sizes = rng.uniform(0.03, 0.10, n_steps) * rng.choice((-1, 1), n_steps)
    level = np.full(RUNS, 1000.0)
    for a, s in zip(at, sizes, strict=True):
        level[a:] *= 1 + s
    values = np.empty(RUNS)
    t = np.arange(SECONDS, dtype=np.float64)
    for i in range(RUNS):
        mean = level[i] * (1 + rng.normal(0, cv))
        if rng.random() < 0.02:
            mean *= 1 + rng.uniform(0.15, 0.40) * rng.choice((-1, 1))
        v = mean * (1 + rng.normal(0, 0.03, SECONDS))
        v[:15] *= np.linspace(0.3, 1.0, 15)
        if rng.random() < 0.10:
            a = int(rng.integers(30, SECONDS - 45))
            v[a : a + int(rng.integers(20, 41))] *= 0.5
        values[i] = run_stats(t, v).median
    return History(values, [(int(a), float(s)) for a, s in zip(at, sizes, strict=True)])


def ours(values: np.ndarray) -> list[int]:
    return [c.index for c in detect(values)]


def ours_unguarded(values: np.ndarray) -> list[int]:
    return [c.index for c in detect(values, guard=False, min_size=1)]


def otava(values: np.ndarray) -> list[int]:
    from otava.analysis import compute_change_points

    points, _ = compute_change_points(list(values), window_len=50, max_pvalue=0.001)
    return [int(c.index) for c in points]


def spa(values: np.ndarray) -> list[int]:
    from signal_processing_algorithms.energy_statistics.energy_statistics import e_divisive

    return [int(i) for i in e_divisive(values, pvalue=0.01, permutations=100)]


DETECTORS: dict[str, Callable[[np.ndarray], list[int]]] = {
    "benchlens": ours,
    "benchlens-unguarded": ours_unguarded,
    "otava": otava,
    "spa": spa,
}


@dataclass
class Score:
    steps: int = 0
    found: int = 0
    false: int = 0
    runs: int = 0
    seconds: float = 0.0
    by_size: dict[str, list[int]] = field(default_factory=dict)  # bucket -> [steps, found]


def score(h: History, found: list[int], within: int, s: Score) -> None:
    left = sorted(found)
    for at, size in h.steps:
        near = [c for c in left if abs(c - at) <= within]
        bucket = "3-5 %" if abs(size) < 0.05 else "5-10 %"
        row = s.by_size.setdefault(bucket, [0, 0])
        row[0] += 1
        s.steps += 1
        if near:
            left.remove(min(near, key=lambda c: abs(c - at)))
            row[1] += 1
            s.found += 1
    s.false += len(left)
    s.runs += len(h.values)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--histories", type=int, default=30, help="per CV")
    ap.add_argument("--within", type=int, default=5)
    ap.add_argument("--detectors", default="benchlens,benchlens-unguarded,otava,spa")
    ap.add_argument("--seed", type=int, default=26)
    args = ap.parse_args()
    names = [n for n in args.detectors.split(",") if n in DETECTORS]
    usable = []
    for n in names:
        try:
            DETECTORS[n](np.linspace(1, 2, 60))
            usable.append(n)
        except ImportError:
            print(f"{n}: not installed, skipped", file=sys.stderr)
    rng = np.random.default_rng(args.seed)
    scores = {(n, cv): Score() for n in usable for cv in CVS}
    for cv in CVS:
        for _ in range(args.histories):
            h = history(rng, cv)
            for n in usable:
                t0 = time.perf_counter()
                found = DETECTORS[n](h.values)
                scores[(n, cv)].seconds += time.perf_counter() - t0
                score(h, found, args.within, scores[(n, cv)])
    print(f"{args.histories} histories of {RUNS} runs per CV; a step found within {args.within} runs\n")
    print("| detector | CV | steps 3-5 % found | steps 5-10 % found | false changes / 100 runs | s per history |")
    print("|---|---|---|---|---|---|")
    for n in usable:
        for cv in CVS:
            s = scores[(n, cv)]
            cells = []
            for bucket in ("3-5 %", "5-10 %"):
                total, hit = s.by_size.get(bucket, [0, 0])
                cells.append(f"{hit / total:.0%} ({hit}/{total})" if total else "-")
            per100 = 100 * s.false / s.runs
            print(f"| {n} | {cv:.0%} | {cells[0]} | {cells[1]} | {per100:.2f} | {s.seconds / args.histories:.3f} |")
    print("\nTarget region (CV <= 3 %, steps >= 5 %; target >= 90 % found, <= 1 false change / 100 runs):\n")
    print("| detector | steps found within 5 runs | false changes / 100 runs | s per 300-run history |")
    print("|---|---|---|---|")
    for n in usable:
        rows = [scores[(n, cv)] for cv in CVS if cv <= 0.03]
        total = sum(s.by_size.get("5-10 %", [0, 0])[0] for s in rows)
        hit = sum(s.by_size.get("5-10 %", [0, 0])[1] for s in rows)
        false = sum(s.false for s in rows) / sum(s.runs for s in rows) * 100
        secs = sum(s.seconds for s in rows) / (args.histories * len(rows))
        print(f"| {n} | {hit / total:.1%} ({hit}/{total}) | {false:.2f} | {secs:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
