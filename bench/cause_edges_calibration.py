"""What app/analysis/cause_edges.py's AGREE takes and refuses, on synthetic throughput of known
edges (issue #23: a threshold comes with the data that calibrates it).

    python bench/cause_edges_calibration.py [--draws 400]   # ~40 s

A 150-s series at 1 s (AR(1) noise of lag-1 correlation phi and coefficient of variation cv around
a level of 100) falls by `depth` over 40-90 s. The detector's edges are the truth's moved by up to
+-15 s each (uniform), as a noisy series' strongest stretch puts them. Per cell:

- taken: the share of draws where a cause window at the truth (the key series changed with the
  drop) is taken: the power of the rule;
- wrong: the share where a cause window that ended 10 s (or 20 s) before the throughput came back
  (a drop that outlasts its cause: a purge lag's recovery, a pool warming) is taken, the detector's
  edges being the truth's: what the rule costs where the throughput knows better;
- own: the share of draws where the throughput alone places both edges within 3 s of the truth (the
  interval of largest T, level_test.strongest): where it rarely does, its own edges are no better
  an estimate than a cause window 10 s off.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlens.app.analysis import level_test
from benchlens.app.analysis.cause_edges import AGREE, cause_edges
from benchlens.app.analysis.drops import drop_over

N, START, END = 150, 40.0, 90.0
CELLS = [(phi, cv, depth) for phi in (0.0, 0.5, 0.9) for cv in (0.05, 0.2, 0.5) for depth in (0.25, 0.5)]


def _draw(rng: np.random.Generator, phi: float, cv: float, depth: float) -> tuple[np.ndarray, np.ndarray]:
    e = rng.standard_normal(N)
    x = np.empty(N)
    x[0] = e[0]
    for k in range(1, N):
        x[k] = phi * x[k - 1] + np.sqrt(1.0 - phi * phi) * e[k]
    t = np.arange(1.0, N + 1.0)
    v = np.maximum(100.0 * (1.0 + cv * x), 0.0)
    v[(t > START) & (t <= END)] *= 1.0 - depth
    return t, v


def _taken(t: np.ndarray, v: np.ndarray, edges: tuple[float, float], window: tuple[float, float]) -> bool:
    found = drop_over(t, v, 100.0, *edges)
    (got,) = cause_edges(t, v, [found], [window], (0.0, float(N)))
    return got is not found and (got.start, got.end) == window


def cell(rng: np.random.Generator, phi: float, cv: float, depth: float, draws: int) -> dict[str, float]:
    taken = wrong10 = wrong20 = own = 0
    for _ in range(draws):
        t, v = _draw(rng, phi, cv, depth)
        off = rng.uniform(-15.0, 15.0, 2).round()
        edges = (START + off[0], END + off[1])
        taken += edges != (START, END) and _taken(t, v, edges, (START, END))
        wrong10 += _taken(t, v, (START, END), (START, END - 10.0))
        wrong20 += _taken(t, v, (START, END), (START, END - 20.0))
        best = level_test.strongest(v, np.ones(N, bool))
        own += best is not None and abs(t[best[1][0]] - 1.0 - START) <= 3 and abs(t[best[1][1]] - END) <= 3
    return {"taken": taken / draws, "wrong_10s": wrong10 / draws, "wrong_20s": wrong20 / draws, "own": own / draws}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--draws", type=int, default=400)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"AGREE = {AGREE}; {args.draws} draws a cell; drop at {START:g}-{END:g} s of {N} s")
    print(
        "| phi | cv | depth | taken (cause at the truth) | wrong (cause ends 10 s early) | wrong (20 s early) | own |"
    )
    print("|---|---|---|---|---|---|---|")
    for phi, cv, depth in CELLS:
        r = cell(rng, phi, cv, depth, args.draws)
        shares = " | ".join(f"{r[k]:.2f}" for k in ("taken", "wrong_10s", "wrong_20s", "own"))
        print(f"| {phi} | {cv} | {depth} | {shares} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
