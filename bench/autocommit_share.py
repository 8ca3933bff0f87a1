"""Commits + rollbacks over the statements the server was sent, per recorded run: the data that
calibrates server_rate.AUTOCOMMIT (issue #23: a threshold comes with the data that calibrates it).

    python bench/autocommit_share.py   # ~1 min

A workload of explicit transactions commits once every few dozen statements; an autocommit one
(each statement its own transaction) leaves Com_commit at zero but for stray explicit transactions
(a monitor's, a lock holder's one ROLLBACK), which are no measure of its work. For every run of
the recorded corpus (bench/drop_quality/runs) with a status loop, the sum over the run of
Com_commit + Com_rollback over the sum of Questions, smallest and largest per workload: AUTOCOMMIT
must lie between the autocommit workload's largest and the others' smallest.
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cause_margins import imported

from benchlens.app.analysis.server_rate import AUTOCOMMIT
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData

CORPUS = Path(__file__).resolve().parent / "drop_quality"


def main() -> int:
    shares: dict[str, list[tuple[float, str]]] = defaultdict(list)
    folders = sorted(p for p in (CORPUS / "runs").iterdir() if p.is_dir())
    for name, data, run in imported((f.name, f) for f in folders):

        def total(metric: str, run: int = run, data: LibraryRunData = data) -> float:
            got = data.data(run, SeriesRef("global_status", metric))
            return float(np.nansum(got[1])) if got is not None else float("nan")

        statements = total("Questions")
        if not statements > 0:
            continue  # captured by dool alone: no status loop
        truth = (CORPUS / "truth" / f"{name}.tsv").read_text().splitlines()
        workload = next((line.split("\t")[1] for line in truth if line.startswith("workload\t")), "smooth")
        commits = np.nansum([total("Com_commit"), total("Com_rollback")])
        shares[workload].append((float(commits) / statements, name))
    print(f"commits + rollbacks / Questions over each run; AUTOCOMMIT = {AUTOCOMMIT:g}\n")
    print("| workload | runs | smallest | largest |")
    print("|---|---|---|---|")
    for workload, xs in sorted(shares.items()):
        xs.sort()
        (lo, lo_run), (hi, hi_run) = xs[0], xs[-1]
        print(f"| {workload} | {len(xs)} | {lo:.3g} ({lo_run}) | {hi:.3g} ({hi_run}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
