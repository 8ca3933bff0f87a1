"""What the server does at a capture's ends, with its clients gone: the data that calibrates
server_rate.IDLE (issue #23: a threshold comes with the data that calibrates it).

    python bench/idle_ends.py [--json]   # ~5 min

A capture (dool, a status loop, `benchlens record`'s monitors) begins before the benchmark and
outlasts it; there the server runs only the monitor's own statements. `server_rate.loaded` cuts
those ends: samples at or below IDLE of the median of the rate's positive samples, where the
sessions connected fell. For every run of the recorded corpus (bench/drop_quality/runs) and every
DBPA case (../shared/corpora/dbpa, when present) with a server rate and a count of sessions, the
rate over the whole capture (`server_rate.rate`) against that median at:

- the samples with the clients gone: the sample and both beside it under half the capture's
  median of sessions and at most one above its fewest (the monitor's own). IDLE must lie above
  all of them, or an end is kept and a drop is tested against its zeros;
- the samples with the clients there: half the median of sessions or more. Their low ones are stalls (a lock
  held every client at 0), which the count of sessions keeps whatever IDLE is; the script prints
  them so that a reader sees how near a workload's own samples come.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "drop_quality"))

import cause_margins
import dbpa
import score

from benchlens.app.analysis import server_rate


def folders() -> list[tuple[str, Path]]:
    out = [(f.name, f) for f in sorted((score.HERE / "runs").iterdir())]
    if dbpa.CORPUS.is_dir():
        out += [(f"dbpa/{c.parent.name}/{c.name}", c / "run") for c in sorted(dbpa.CORPUS.glob("*/case-*"))]
    return out


def ends(v: np.ndarray, sessions: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(the rate against its median with the clients gone, with them there), or None. Told by
    the sessions alone, not by IDLE: gone where the sample and both beside it had under half the
    capture's median of sessions and at most one more than its fewest (the monitor's own; a
    sample beside the clients' coming or going is partly theirs: a status loop's counters are
    rates over the interval before)."""
    pos = v[np.isfinite(v) & (v > 0)]
    ok = np.isfinite(sessions) & np.isfinite(v)
    if not len(pos) or not ok.any():
        return None
    ratio = v / float(np.median(pos))
    full = float(np.median(sessions[ok]))
    few = ok & (sessions <= float(np.min(sessions[ok])) + 1) & (sessions < 0.5 * full)
    padded = np.concatenate(([True], few, [True]))  # a capture's first and last have one side
    alone = few & padded[:-2] & padded[2:]
    there = ok & (sessions >= 0.5 * full)
    return ratio[alone], ratio[there]


def readings() -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    for name, data, rid in cause_margins.imported(folders()):
        load = functools.partial(data.data, rid)
        got = server_rate.rate(data.available(rid), load)
        conn = server_rate.sessions_connected(load)
        split = ends(got[2], server_rate.last_read(conn, got[1])) if got is not None and conn is not None else None
        if got is None or split is None:
            continue
        gone, there = split
        rows.append(
            {
                "run": name,
                "label": got[0].label,
                "gone": len(gone),
                "gone_max": float(gone.max()) if len(gone) else None,
                "there_min": float(there.min()) if len(there) else None,
            }
        )
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rows = readings()
    gone = [r for r in rows if r["gone_max"] is not None]
    worst = sorted(gone, key=lambda r: -float(r["gone_max"]))[:5]  # type: ignore[arg-type]
    lowest = sorted((r for r in rows if r["there_min"] is not None), key=lambda r: float(r["there_min"]))[:5]  # type: ignore[arg-type]
    got = {
        "IDLE": server_rate.IDLE,
        "captures": len(rows),
        "with_idle_ends": len(gone),
        "samples_gone": sum(int(r["gone"]) for r in rows),  # type: ignore[call-overload]
        "largest_gone": [(r["run"], round(float(r["gone_max"]), 5)) for r in worst],  # type: ignore[arg-type]
        "lowest_there": [(r["run"], round(float(r["there_min"]), 5)) for r in lowest],  # type: ignore[arg-type]
    }
    print(json.dumps(got, indent=1 if args.json else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
