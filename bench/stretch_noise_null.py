"""How often a window of AR(1) noise passes EXTRA_EFFECT (5) standard errors of the run's own
stretch noise by chance (explain._StretchNoise: shifts.Variogram's contrast of a stretch of the
window's length with the steady samples), by the noise's phi, the steady samples and the window's
length (issue #23: the cause rules' certainty comes with the data that calibrates it).

    python bench/stretch_noise_null.py [--draws 1000] [--seed 1]   # ~1 min

Each draw: n steady samples of AR(1) noise with a window of L samples of the same noise inside
them (the window left out of the steady samples, as an explanation does), z = (the window's mean -
the steady median) / the variogram's standard error. One-sided, as the causes read a rise.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchlens.app.analysis.causes import EXTRA_EFFECT
from benchlens.app.analysis.shifts import Variogram

PHIS = (0.0, 0.5, 0.9)
STEADY = (12, 16, 24, 32, 48, 64, 128)
SHARES = (0.1, 0.25)  # the window's length, as a share of the steady samples


def _ar1(rng: np.random.Generator, n: int, phi: float) -> np.ndarray:
    e = rng.normal(size=n + 200)
    x = np.zeros_like(e)
    for i in range(1, len(e)):
        x[i] = phi * x[i - 1] + e[i]
    return x[200:]


def rate(rng: np.random.Generator, phi: float, n: int, length: int, draws: int) -> float:
    hits = 0
    for _ in range(draws):
        x = _ar1(rng, n + length, phi)
        a = n // 2
        steady, window = np.r_[x[:a], x[a + length :]], x[a : a + length]
        se = float(Variogram(steady).contrast_se(length, np.array([float(len(steady))]))[0])
        z = (window.mean() - np.median(steady)) / se if se > 0 else np.inf
        hits += z >= EXTRA_EFFECT
    return hits / draws


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--draws", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    print(f"| phi | steady samples | window | P(z >= {EXTRA_EFFECT:g}) |")
    print("|---|---|---|---|")
    for phi in PHIS:
        for n in STEADY:
            for share in SHARES:
                length = max(1, round(n * share))
                print(f"| {phi:g} | {n} | {length} | {rate(rng, phi, n, length, args.draws):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
