"""How far the sessions-running gauge moves by itself over a stretch of a run where nothing was
injected: the null that calibrates causes.RUNNING_HELD, PILED and PILED_MORE (issue #23: a
threshold comes with the data that calibrates it).

    python bench/gauge_null.py [--per-run 40] [--seed 1] [--json]   # ~8 min; --per-run 100 ~15 min

The runs: every quiet run and every run of a pair of the recorded corpus (bench/drop_quality: no
disturbance in them, one for each workload, the hot, bursty and writes ones included) and DBPA's
normal cases (../shared/corpora/dbpa, when present). In each, --per-run stretches of 5-40 s (at
least two samples of a 5-s capture) drawn uniformly inside the throughput's span, 10 s from
either end, each explained by `benchlens explain` against the run's steady state, as a drop's
window is. Of each stretch, the sessions running (SHOW GLOBAL STATUS Threads_running, or dool's
column that read it) during it against before it: their ratio and their difference, and the share
of the sessions connected that ran during it.

A threshold on a pile-up must lie above what the gauge does on its own: the script prints the
quantiles of each quantity over the null stretches (the rise in the gauge's own standard errors
too), then a grid of causes._piled's thresholds and of causes._held's (the sessions' time idle
between statements, the performance schema's `idle`, fallen to a share of its steady level)
with, for each pair, how many null stretches it calls piled up, and how many windows of the
corpora's disturbances (bench/cause_margins.py's: the truth windows) of lock waits (what a pile-up
is evidence of) and of slowed clients (network: a pile-up rules them out, so none may pass). The
rule the constants follow: the smallest thresholds that call at most 1 % of the null stretches and
no slowed clients' window piled up; of thresholds that pass the same lock windows, the larger (the
null is a sample, the margin costs nothing there).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "drop_quality"))

import cause_margins
import dbpa
import score

from benchlens.app.analysis import causes, drops
from benchlens.app.analysis.evidence import Change, Evidence
from benchlens.app.analysis.run_drops import throughput
from benchlens.app.analysis.window import explain_window
from benchlens.app.rundata import LibraryRunData

SHORTEST, LONGEST, MARGIN = 5.0, 40.0, 10.0
QUANTILES = (0.5, 0.9, 0.95, 0.99, 1.0)
PILED_GRID, MORE_GRID = (1.25, 1.5, 2.0), (1.0, 1.5, 2.0, 3.0)
HELD_GRID, INSIDE_GRID = (1.0, 1.05, 1.1, 1.2, 1.3), (0.8, 0.9, 0.95, 1.0)
SIGMAS_GRID = (3.0, 4.0, 5.0, 6.0, 8.0, 12.0)
IDLE_GRID = (0.25, 0.5, 0.75, 0.9)
OFF = (math.inf, math.inf)  # a path of causes._piled left out of a grid's row


def null_folders() -> list[tuple[str, Path]]:
    """(name, folder) of every run with nothing injected."""
    out = []
    for folder in sorted((score.HERE / "runs").iterdir()):
        truth = score.read_truth(score.HERE / "truth" / f"{folder.name}.tsv")
        if truth.scenario == "quiet":
            out.append((folder.name, folder))
    if dbpa.CORPUS.is_dir():
        out += [(f"dbpa/normal/{c.name}", c / "run") for c in sorted((dbpa.CORPUS / "normal").glob("case-*"))]
    return out


def stretches(data: LibraryRunData, rid: int, n: int, rng: np.random.Generator) -> list[tuple[float, float]]:
    ref = throughput(data, rid)
    if ref is None:
        return []
    t = np.asarray(data.data(rid, ref)[0], np.float64)
    if len(t) < 4:
        return []
    step = drops.sample_step(t)
    lo, hi = t[0] + MARGIN, t[-1] - MARGIN
    out = []
    for _ in range(n):
        length = max(rng.uniform(SHORTEST, LONGEST), 2 * step)
        if hi - lo <= length:
            break
        a = rng.uniform(lo, hi - length)
        out.append((a, a + length))
    return out


@dataclass(frozen=True)
class Gauge:
    run: str
    seconds: float
    running: Change
    connected: Change | None
    sigmas: float  # the rise in the gauge's own standard errors (Evidence.beyond_noise)
    idle: Change | None = None  # the sessions' time idle between statements (causes.IDLE_TIME)
    idle_sigmas: float = 0.0  # its move in its own standard errors


def gauge(name: str, seconds: float, ev: Evidence) -> Gauge | None:
    running = ev.server("Threads_running")
    if running is None or running.before <= 0:
        return None
    idle = ev.levels.get(causes.IDLE_TIME)
    moved = ev.beyond_noise(idle) if idle is not None else 0.0
    return Gauge(
        name, round(seconds, 1), running, ev.server("Threads_connected"), ev.beyond_noise(running), idle, moved
    )


def null_evidence(per_run: int, seed: int) -> list[tuple[str, float, Evidence]]:
    """(run, seconds, evidence) of per_run null stretches of each run with nothing injected, each
    explained against the run's steady state as a drop's window is."""
    rng = np.random.default_rng(seed)
    out = []
    for name, data, rid in cause_margins.imported(null_folders()):
        for a, b in stretches(data, rid, per_run, rng):
            out.append((name, b - a, Evidence(explain_window(data, rid, (a, b), "absolute").explain)))
    return out


def null_gauges(per_run: int, seed: int) -> list[Gauge]:
    return [g for name, seconds, ev in null_evidence(per_run, seed) if (g := gauge(name, seconds, ev)) is not None]


def arguments(doc: str) -> argparse.Namespace:
    """The null stretches' options (this script's and bench/rules_null.py's)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--per-run", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    return ap.parse_args()


def quantiles(values: list[float]) -> dict[str, float]:
    return {f"q{q:g}": round(float(np.quantile(values, q)), 3) for q in QUANTILES} if values else {}


def grid(null: list[Gauge], windows: list[cause_margins.Window]) -> list[dict[str, object]]:
    """Per pair of thresholds: how many null stretches and how many windows of lock waits (the
    pile-up's class) and of slowed clients (network: it must not pass) _piled calls piled up."""
    sides = {
        klass: [g for w in windows if klass in w.classes and (g := gauge(w.name, 0.0, w.ev)) is not None]
        for klass in ("locks", "network")
    }
    cells: list[tuple[str, dict[str, tuple[float, float]]]] = [
        (f"PILED {p:g}, PILED_MORE {m:g}", {"piled": (p, m), "inside": OFF, "certain": OFF})
        for p in PILED_GRID
        for m in MORE_GRID
    ]
    cells += [
        (f"RUNNING_HELD {h:g}, ALL_INSIDE {i:g}", {"inside": (h, i), "certain": OFF})
        for h in HELD_GRID
        for i in INSIDE_GRID
    ]
    # the rows of the gauge's rise beyond its own noise include both rules above at their values
    cells += [(f"RUNNING_HELD {h:g}, PILED_SIGMAS {k:g}", {"certain": (h, k)}) for h in HELD_GRID for k in SIGMAS_GRID]
    # causes._held alone: the sessions' time idle fell to a share of its steady level, beyond noise
    held = [(f"IDLE_HELD {h:g}, PILED_SIGMAS {k:g}", (h, k)) for h in IDLE_GRID for k in SIGMAS_GRID]
    out: list[dict[str, object]] = []
    for label, kw in cells:

        def count(gs: list[Gauge], kw: dict[str, tuple[float, float]] = kw) -> int:
            return sum(causes._piled(g.running, g.connected, g.sigmas, **kw) for g in gs)

        out.append(
            {
                "cell": label,
                "null": f"{count(null)} of {len(null)}",
                "locks": f"{count(sides['locks'])} of {len(sides['locks'])}",
                "network": f"{count(sides['network'])} of {len(sides['network'])}",
            }
        )
    for label, pair in held:

        def idled(gs: list[Gauge], pair: tuple[float, float] = pair) -> str:
            timed = [(g.idle, g.idle_sigmas) for g in gs if g.idle is not None]
            return f"{sum(causes._held(idle, sigmas, pair) for idle, sigmas in timed)} of {len(timed)}"

        out.append(
            {"cell": label, "null": idled(null), "locks": idled(sides["locks"]), "network": idled(sides["network"])}
        )
    return out


def summary(null: list[Gauge]) -> dict[str, object]:
    ratio = [g.running.during / g.running.before for g in null]
    more = [g.running.during - g.running.before for g in null]
    share = [g.running.during / g.connected.during for g in null if g.connected and g.connected.during > 0]
    worst = sorted(null, key=lambda g: -g.running.during / g.running.before)[:5]
    return {
        "stretches": len(null),
        "runs": len({g.run for g in null}),
        "ratio": quantiles(ratio),
        "more": quantiles(more),
        "share": quantiles(share),
        "sigmas": quantiles([g.sigmas for g in null if math.isfinite(g.sigmas)]),
        "largest_ratios": [(g.run, g.seconds, round(g.running.before, 2), round(g.running.during, 2)) for g in worst],
    }


def main() -> int:
    args = arguments(__doc__)
    null = null_gauges(args.per_run, args.seed)
    got = {"null": summary(null), "grid": grid(null, cause_margins.windows())}
    if args.json:
        print(json.dumps(got, indent=1))
        return 0
    print(json.dumps(got["null"]))
    print("| thresholds | null stretches piled up | lock windows | slowed clients' windows |")
    print("|---|---|---|---|")
    for c in got["grid"]:  # type: ignore[attr-defined]
        print(f"| {c['cell']} | {c['null']} | {c['locks']} | {c['network']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
