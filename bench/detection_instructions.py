"""Instructions of one drop detection of 86,400 points (bench/diagnosis_speed.py's day at 1 s),
against one np.median of the same series, counted by valgrind's callgrind: a ratio the other work
of a shared machine does not move. The best of ten wall-clock timings on this machine's VM moved
from 80 to 150 ms within minutes, and diagnosis_speed.py's ratio to a median with it (the median
timed at another moment); the detection's instruction count moves by about 1 % between runs
(401-407 M), the median's by a few % (3.2-3.6 M, so the ratio by as much).

    python bench/detection_instructions.py [--calls 3]   # ~1 min; needs valgrind

Each kind runs in a child process under callgrind twice, with 0 and with `calls` calls after the
same setup (imports, the series, one warm-up call) and the same hash seed; the difference over
`calls` is one call's (the median's over 50: a few million instructions each, and the setup's
count moves by millions between runs).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from diagnosis_speed import N, day

from benchlens.app.analysis.drops import detect


def _child(kind: str, calls: int) -> None:
    t, tps = day(np.random.default_rng(1))
    work = (lambda: detect(t, tps)) if kind == "detect" else (lambda: np.median(tps))
    work()
    for _ in range(calls):
        work()


def _instructions(kind: str, calls: int) -> int:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    env = {**os.environ, "PYTHONHASHSEED": "0"}  # the imports' dictionaries alike in both runs
    out = subprocess.run([*cmd, "--child", kind, str(calls)], capture_output=True, text=True, check=True, env=env)
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_call(kind: str, calls: int) -> float:
    return (_instructions(kind, calls) - _instructions(kind, 0)) / calls


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--child", nargs=2, metavar=("KIND", "CALLS"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        _child(args.child[0], int(args.child[1]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind not found (apt-get install valgrind)", file=sys.stderr)
        return 1
    d = per_call("detect", args.calls)
    m = per_call("median", 50)
    print(f"detection, {N:,} points: {d / 1e6:.0f} M instructions, {d / m:.0f}x one np.median ({m / 1e6:.2f} M)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
