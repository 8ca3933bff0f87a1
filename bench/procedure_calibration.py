"""The null rate of a short series' whole detection procedure, and its power on held-out shapes
(issue #23: a threshold comes with the data that calibrates it).

    python bench/procedure_calibration.py [--seconds 210000] [--seed 1] [--json]   # ~4 min

level_test's critical values are the quantile of the largest T over every interval of a series
with nothing injected. drops.detect does more than take that maximum: it cuts the warm-up and the
benchmark's ramp-down, caps the catch-up bursts, tests the thresholds' candidates and puts the
run's strongest stretch in their place. Each is a selection the critical values do not include;
this measures what they do together, on the noises of bench/detection_calibration.py, for series
short enough to be tested so (drops.TESTABLE):

- null: AR(1) phi 0, 0.5, 0.9 at CV 0.1, 0.3, 1.0 (clipped at 0), Poisson counts of mean 1 and 5,
  60-300 samples of 1 s, and 5-s means of 1-s noise (a dool capture of 130 s, DBPA's); about
  `--seconds` seconds of each; reported as false drops per 10,000 s and as the share of the draws
  with one against the nominal alpha of a draw (n x step / 10,000 s), which a procedure that
  selects more than the maximum would exceed;
- power: the issue's held-out shapes in +-5 % noise (phi 0, 0.5, 0.9; 20 draws each): -29 % for 60
  s in the middle of 180 s, -27 % for the last 40 s of 150 s, -25 % for 60 s in the middle of 300
  s, and a drop that deepens halfway (-22 % for 15 s, then -36 % for 25 s: hot-rows-long-hot's);
  found = a tested drop with both edges within 5 s; and two drops between two levels, the run
  back above its level after them.

`--first-look` (~6 min): the null rate of the first look's maximum (drops.first_look: the strongest
stretch over the samples a short series is tested on) at the series' alpha / each of SELECTIONS,
per cell, at `--sensitivity`'s false-alarm rate: what calibrates drops.Sensitivity.selection.

`--beside` (~2 min at --seconds 100000): the false drops beside a drop a second series proved,
where run_drops goes on with the step-down past it (drops.retested).

bench/detection_calibration.md keeps the figures (session 14: every cell within its sampling error
of the target; a rule that put the strongest stretch in place of unproven candidates measured and
not kept).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from detection_calibration import ar1, noisy

from benchlens.app.analysis import drops, level_test

PHIS = (0.0, 0.5, 0.9)
CVS = (0.1, 0.3, 1.0)
LENGTHS = (60, 120, 300)
COUNTS = (1.0, 5.0)
# (step s, samples) of the coarse series: 5-s means over 130 s
COARSE = ((5, 26),)
# (name, samples, pieces: (first low sample, last low sample + 1, depth) ...); a drop that deepens
# halfway is the held-out hot-rows-long-hot's shape (its transactions turned to one row: -25 %,
# then -38 % from 16 s on)
SHAPES = (
    ("-29 % 60 s mid of 180 s", 180, ((60, 120, 0.29),)),
    ("-27 % last 40 s of 150 s", 150, ((110, 150, 0.27),)),
    ("-25 % 60 s mid of 300 s", 300, ((120, 180, 0.25),)),
    ("-22 % 15 s, -36 % 25 s in 100 s", 100, ((30, 45, 0.22), (45, 70, 0.36))),
    # a drop between two levels (level_test.between): held-out hot-rows-short-hot's (-33 % for 12
    # s, the run back 8 % above its level) and dool-row-lock-long-hot's (a 40-s stall to 0, the
    # run back 35 % above)
    ("-33 % 12 s, +8 % after, in 75 s", 75, ((30, 42, 0.33), (42, 75, -0.08))),
    ("0 for 40 s, +35 % after, in 100 s", 100, ((30, 70, 1.0), (70, 100, -0.35))),
    # a stall and the queue a rate-limited driver drains after it: held-out net-congest-short-tpccrated's
    # (commits at 0 for 12 s, then x1.9 for 14 s, back to the rate after)
    ("0 for 12 s, x1.9 14 s after, in 75 s", 75, ((30, 42, 1.0), (42, 56, -0.9))),
)
POWER_DRAWS = 20
# divisors of a series' alpha the first look is measured at (--first-look)
SELECTIONS = (1.0, 1.25, 1.5, 2.0)
EDGE_S = 5.0


def _found(t: np.ndarray, v: np.ndarray) -> int:
    return sum(d.tested for d in drops.detect(t, v))


def _draws(seed: int, kind: str, phi: float, p: float, step: int, n: int, count: int) -> Iterator[np.ndarray]:
    for k in range(count):
        rng = np.random.default_rng([seed, int(phi * 10), int(p * 100), n, step, k])
        if kind == "poisson":
            yield rng.poisson(p, n).astype(float)
        else:
            yield noisy(rng, n * step, phi, p).reshape(n, step).mean(axis=1)


def null_cells(seed: int, seconds: float) -> Iterator[tuple[str, int, int, Iterator[np.ndarray]]]:
    """Every null configuration: its name, samples, step (s) and its draws (about `seconds` of it)."""
    kinds = [("ar1", phi, cv) for phi, cv in itertools.product(PHIS, CVS)] + [("poisson", 0.0, m) for m in COUNTS]
    cells = [(kind, 1, n) for kind, n in itertools.product(kinds, LENGTHS)]
    cells += [(("ar1", 0.9, cv), step, n) for cv in (0.3, 1.0) for step, n in COARSE]
    for (kind, phi, p), step, n in cells:
        count = max(1, int(seconds / (n * step)))
        name = f"AR(1) phi={phi} cv={p}" if kind == "ar1" else f"Poisson mean={p}"
        yield (name if step == 1 else f"{step}-s means {name}"), n, step, _draws(seed, kind, phi, p, step, n, count)


def null_rows(seed: int, seconds: float) -> list[dict[str, object]]:
    """False drops of every null configuration, about `seconds` of each."""
    out = []
    for name, n, step, draws in null_cells(seed, seconds):
        hits = runs = count = 0
        for v in draws:
            got = _found(step * np.arange(1, n + 1, dtype=float), v)
            hits += got
            runs += got > 0
            count += 1
        out.append(
            {
                "noise": name,
                "samples": n,
                "draws": count,
                "false_drops": hits,
                "per_10k": hits / (count * n * step) * 10_000.0,
                "ratio": (runs / count) / (n * step / 10_000.0),
            }
        )
    return out


def first_look_rows(seed: int, seconds: float, sensitivity: str = "normal") -> list[dict[str, object]]:
    """The first look's null rate at each divisor of SELECTIONS: the draws whose strongest stretch
    over the samples a short series is tested on (the warm-up and ramp-down cut, the catch-up
    capped: drops.first_look) reaches the critical value of its m samples at alpha(m) / divisor,
    per 10,000 s. Every test of the first look (the candidates' step-down, the strongest stretch
    in their place) proves a stretch whose T is at most that maximum, so at the divisor where every
    cell is at most the sensitivity's alarms per 10,000 s the first look is too."""
    alarms = drops.SENSITIVITY[sensitivity].alarms
    out = []
    for name, n, step, draws in null_cells(seed, seconds):
        hits = dict.fromkeys(SELECTIONS, 0)
        count = 0
        t = step * np.arange(1, n + 1, dtype=float)
        for v in draws:
            count += 1
            look = drops.first_look(t, v, sensitivity)
            if look is None:
                continue
            best, m = look
            for d in SELECTIONS:
                hits[d] += best >= level_test.critical(m, level_test.alpha(m, step, alarms) / d, step=step)
        seconds_ = count * n * step
        out.append(
            {"noise": name, "samples": n, "draws": count}
            | {f"per_10k at /{d:g}": hits[d] / seconds_ * 10_000.0 for d in SELECTIONS}
            | {f"drops at /{d:g}": hits[d] for d in SELECTIONS}
        )
    return out


def beside_rows(seed: int, seconds: float) -> list[dict[str, object]]:
    """False drops beside a drop a second series proved (run_drops goes on with the step-down past
    it: drops.retested): the null noises with a -60 % drop over their middle fifth, the candidate
    that meets it taken as proven, whatever its own test said; a candidate retested proves
    elsewhere is false. Per 10,000 s of the series outside the drop."""
    kinds = [("ar1", phi, cv) for phi, cv in itertools.product(PHIS, CVS)] + [("poisson", 0.0, m) for m in COUNTS]
    cells = [(kind, 1, n) for kind, n in itertools.product(kinds, (120, 300))]
    cells += [(("ar1", 0.9, cv), step, n) for cv in (0.3, 1.0) for step, n in COARSE]
    out = []
    for (kind, phi, p), step, n in cells:
        count = max(1, int(seconds / (n * step)))
        hits = used = 0
        lo, hi = 2 * n // 5, 3 * n // 5
        for k in range(count):
            rng = np.random.default_rng([seed, 7, int(phi * 10), int(p * 100), n, step, k])
            v = rng.poisson(p, n).astype(float) if kind == "poisson" else noisy(rng, n * step, phi, p)
            v = v.reshape(n, step).mean(axis=1) if kind != "poisson" else v
            v[lo:hi] *= 0.4
            t = step * np.arange(1, n + 1, dtype=float)
            found = drops.detect(t, v)
            meets = [d for d in found if d.start < t[hi - 1] and d.end > t[lo]]
            if not meets:
                continue
            used += 1
            proven = {id(d) for d in meets} | {id(d) for d in found if d.tested}
            beside = [d for d in found if d.tested and id(d) not in {id(m) for m in meets}]
            beside += drops.retested(t, v, found, proven)
            hits += sum(1 for d in beside if not (d.start < t[hi - 1] and d.end > t[lo]))
        name = f"AR(1) phi={phi} cv={p}" if kind == "ar1" else f"Poisson mean={p}"
        outside = used * (n - (hi - lo)) * step
        out.append(
            {
                "noise": name if step == 1 else f"{step}-s means {name}",
                "samples": n,
                "draws": used,
                "false_drops": hits,
                "per_10k": hits / outside * 10_000.0 if outside else float("nan"),
            }
        )
    return out


def power_rows(seed: int) -> list[dict[str, object]]:
    out = []
    for name, n, pieces in SHAPES:
        found = 0
        low = [(lo, hi) for lo, hi, depth in pieces if depth > 0]  # the drop (the others: a new level)
        a, b = low[0][0], low[-1][1]
        for phi, k in itertools.product(PHIS, range(POWER_DRAWS)):
            rng = np.random.default_rng([seed, n, a, int(phi * 10), k])
            v = 1900.0 * (1.0 + 0.05 * ar1(rng, n, phi))
            for lo, hi, depth in pieces:
                v[lo:hi] *= 1.0 - depth
            t = np.arange(1, n + 1, dtype=float)  # sample i covers (i - 1, i]: the drop is (a, b]
            found += any(
                d.tested and abs(d.start - a) <= EDGE_S and abs(d.end - b) <= EDGE_S for d in drops.detect(t, v)
            )
        out.append({"shape": name, "found": found, "of": len(PHIS) * POWER_DRAWS})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=210_000.0, help="seconds of each null configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--beside", action="store_true", help="only the false drops beside a drop a second series proved")
    ap.add_argument("--first-look", action="store_true", help="only the first look's null rate at each alpha divisor")
    ap.add_argument("--sensitivity", default="normal", choices=sorted(drops.SENSITIVITY), help="of --first-look")
    args = ap.parse_args()
    if args.first_look:
        rows = first_look_rows(args.seed, args.seconds, args.sensitivity)
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        print("The first look's false drops per 10,000 s at alpha / " + ", ".join(f"{d:g}" for d in SELECTIONS))
        for r in rows:
            rates = "  ".join(f"{r[f'per_10k at /{d:g}']:5.2f}" for d in SELECTIONS)
            print(f"  {r['noise']:36} {r['samples']:>4} x {r['draws']:>5}  {rates}")
        return 0
    if args.beside:
        rows = beside_rows(args.seed, args.seconds)
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        print("False drops per 10,000 s beside a -60 % drop a second series proved (outside it)")
        for r in rows:
            print(f"  {r['noise']:36} {r['samples']:>4} x {r['draws']:>5}  {r['false_drops']:>4}  {r['per_10k']:6.2f}")
        return 0
    got = {"null": null_rows(args.seed, args.seconds), "power": power_rows(args.seed)}
    if args.json:
        print(json.dumps(got, indent=1))
        return 0
    print("False drops per 10,000 s (ratio: the share of draws with one over the nominal alpha of a draw)")
    for r in got["null"]:
        print(f"  {r['noise']:36} {r['samples']:>4} x {r['draws']:>5}  {r['per_10k']:6.2f}  ratio {r['ratio']:.2f}")
    for r in got["power"]:
        print(f"  power {r['shape']:28} {r['found']}/{r['of']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
