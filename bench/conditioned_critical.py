"""Would a short series' critical value be lower if it were read given how white the series'
residuals look? (Measured in session 15 and not kept: bench/detection_calibration.md.)

    python bench/conditioned_critical.py [--samples 26] [--step 5] [--draws 20000]   # ~10 s

For each null of CRITICAL_MEANS (bench/level_test_calibration.py's block means of the 1-s noises,
and the counts), the largest T over every interval (level_test.statistic), and at that interval
d: the root mean square of the series' differences (those across its two edges left out) over
sqrt(2) times that of the two-level fit's residuals, 1 for white noise, lower for a correlated one.
Prints each noise's (1 - alpha) quantile of max T over every draw and over the draws with d at
least 0.8, 0.9 and 1.0, alpha being the series' share of 10,000 s.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from level_test_calibration import block_means

from benchlens.app.analysis import level_test


def whiteness(x: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """d of each row of x at its interval [a, b]."""
    n = x.shape[1]
    idx = np.arange(n)
    inside = (idx >= a[:, None]) & (idx <= b[:, None])
    m_in = (x * inside).sum(1) / inside.sum(1)
    m_out = (x * ~inside).sum(1) / (~inside).sum(1)
    resid = x - np.where(inside, m_in[:, None], m_out[:, None])
    edge = np.diff(inside.astype(int), axis=1) != 0
    diff = np.where(edge, 0.0, np.diff(x, axis=1))
    return np.sqrt((diff**2).sum(1) / (~edge).sum(1) / (2.0 * (resid**2).mean(1)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=26)
    ap.add_argument("--step", type=int, default=5)
    ap.add_argument("--draws", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    n, k = args.samples, args.draws
    first, last = level_test.every_interval(n)
    alpha = level_test.alpha(n, args.step)
    print(f"{n} samples of {args.step} s, alpha {alpha:.4f}: quantile of max T, all draws / given d >= 0.8, 0.9, 1.0")
    for name, rows in block_means(np.random.default_rng(args.seed), n, k, args.step).items():
        t = np.concatenate([level_test.statistic(rows[i : i + 500], first, last) for i in range(0, k, 500)])
        j = t.argmax(axis=1)
        top = t[np.arange(k), j]
        d = whiteness(rows, first[j], last[j])
        ok = np.isfinite(top)
        cells = [f"{np.quantile(top[ok], 1 - alpha):5.2f}"]
        for lo in (0.8, 0.9, 1.0):
            pick = ok & (d >= lo)
            cells.append(f"{np.quantile(top[pick], 1 - alpha):5.2f} ({pick.mean():.2f})" if pick.sum() > 50 else "  -")
        print(f"  {name:42} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
