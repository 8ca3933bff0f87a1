"""How often each cause threshold of app/analysis/causes.py is passed by chance: its quantity over
stretches of runs where nothing was injected (issue #23: a threshold comes with the data that
calibrates it, its false rate as well as what it separates).

    python bench/rules_null.py [--per-run 40] [--seed 1] [--json]   # ~10 min

bench/cause_margins.py reads each rule's quantity (cause_margins.RULES: another client's work,
more sessions, the work held, I/O waits, the history list, more row lock waits, the page cleaner's
writes at the sync flush point, CPU taken, the CPU idled) over the
disturbances' windows: what the threshold separates. This reads the same quantities over the null
stretches of bench/gauge_null.py (5-40 s of every quiet run, every run of a pair and DBPA's normal
cases, explained against the run's steady state as a drop's window is), and per rule, at its
threshold and at a grid of multiples of it (GRID): how many null stretches pass it, and how many of
the rule's own windows and of the others' (cause_margins' margins, the same windows). A threshold
whose null passing share is above NULL_SHARE fires by chance on a drop of another cause as often;
the rule (gauge_null's): the smallest multiple that keeps the null at most NULL_SHARE.

Each quantity is read alone, without its rule's other conditions (as cause_margins does): a rule
that also needs a drop, or a second quantity, passes less often than this says.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "drop_quality"))

import cause_margins
import gauge_null

from benchlens.app.analysis.evidence import Evidence

# multiples of each threshold measured (for a rule passing below its threshold, the same multiples
# of the distance below 1: a share of a steady level)
GRID = (0.75, 1.0, 1.25, 1.5, 2.0)
# the most of the null stretches a threshold may pass (gauge_null's rule)
NULL_SHARE = 0.01


def _scaled(threshold: float, k: float, above: bool) -> float:
    return threshold * k if above else 1.0 - (1.0 - threshold) * k


def _passes(v: float, at: float, above: bool) -> bool:
    return v >= at if above else v <= at


def table(null: list[tuple[str, float, Evidence]], windows: list[cause_margins.Window]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name, threshold, klass, read, above in cause_margins.RULES:
        values = [(v, run) for run, _, ev in null if (v := read(ev)) is not None and math.isfinite(v)]
        mine = [v for w in windows if klass in w.classes and (v := read(w.ev)) is not None and math.isfinite(v)]
        others = [v for w in windows if klass not in w.classes and (v := read(w.ev)) is not None and math.isfinite(v)]
        grid = []
        for k in GRID:
            at = _scaled(threshold, k, above)
            grid.append(
                {
                    "threshold": round(at, 3),
                    "null": sum(_passes(v, at, above) for v, _ in values),
                    "its_windows": sum(_passes(v, at, above) for v in mine),
                    "others": sum(_passes(v, at, above) for v in others),
                }
            )
        keep = next((g["threshold"] for g in grid if g["null"] <= NULL_SHARE * len(null)), None)
        worst = sorted(values, key=lambda x: -x[0] if above else x[0])[:3]
        out.append(
            {
                "rule": name,
                "value": threshold,
                "null_stretches": len(null),
                "null_read": len(values),
                "its_windows": len(mine),
                "others": len(others),
                "grid": grid,
                "smallest_keeping_the_null": keep,
                "null_extremes": [(round(v, 3), run) for v, run in worst],
                "null_passing_by_run": dict(Counter(run for v, run in values if _passes(v, threshold, above))),
            }
        )
    return out


def main() -> int:
    args = gauge_null.arguments(__doc__)
    got = table(gauge_null.null_evidence(args.per_run, args.seed), cause_margins.windows())
    if args.json:
        print(json.dumps(got, indent=1))
        return 0
    for r in got:
        print(
            f"{r['rule']} = {r['value']:g}: the quantity read on {r['null_read']} of {r['null_stretches']} null"
            f" stretches; {r['its_windows']} of its windows, {r['others']} others'"
        )
        print("    | threshold | null stretches passing | its windows passing | others passing |")
        for g in r["grid"]:  # type: ignore[attr-defined]
            print(f"    | {g['threshold']:g} | {g['null']} | {g['its_windows']} | {g['others']} |")
        print(f"    smallest keeping the null at {NULL_SHARE:.0%}: {r['smallest_keeping_the_null']}")
        print(f"    null stretches passing it, by run: {r['null_passing_by_run']}")
        print("    null extremes: " + "; ".join(f"{v:g} {run}" for v, run in r["null_extremes"]))  # type: ignore[attr-defined]
    return 0


if __name__ == "__main__":
    sys.exit(main())
