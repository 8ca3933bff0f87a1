"""Critical values of app/analysis/level_test.py: the (1 - alpha) quantile of the largest T over
every interval of a series with nothing injected, the worst over the noises of the calibration.

    python bench/level_test_calibration.py [--log] [--seed 1] [--scale 1.0] [--sizes 16 60]

Noises (bench/detection_calibration.py's generators): AR(1) with phi 0, 0.3, 0.5, 0.7 and 0.9 at a
coefficient of variation of 0.3 (Gaussian: T does not depend on the level or the scale) and of 1.0
(clipped at 0: a sixth of the samples are zeros, as a stalling commit count), Poisson counts of
mean 1 and 5: a throughput falling below the rest of its run. Per series length n, `draws(n)`
series of each; a quantile is kept only where at least MIN_EXCEEDING draws are above it (the
smallest alphas need the most draws: the short series).
`--capped`: the tables of CRITICAL_CAPPED instead: the same statistic on noises of lag-1 correlation
up to each cap of CAPS (a series sampled every 2, 5, 10 or 30 s of noise correlated at 0.9 from
one second to the next: level_test.sample_phi), half the draws (the alphas of such a series are
twice as large at least), the worst over the noises of phi up to the cap and the counts.
`--capped --gauge`: more caps of CRITICAL_CAPPED, for a gauge read every 10, 5 or 2 s (GAUGE_CAPS),
from draws of their own.
`--means 2 5 10 30`: the tables of CRITICAL_MEANS: the noises drawn as the means of every 2, 5, 10
or 30 s of the 1-s AR(1) noises (clipped at 0 each second) and the counts per sample, half the
draws (~4 min a step up to 300 samples on this machine: larger series keep CRITICAL_CAPPED's).
`--between`: CRITICAL_BETWEEN, of level_test.between (a stretch against each side's own level, the
series fitted as three levels) over every interval with MIN_LEN samples on each side, from draws of
their own, the worst of the same noises (of 1 s: conservative for a sampled series).
`--log`: the same noises read as latencies, the test on -log(x) of their positive samples (a rise
is a ratio; latency rises are tested so: CRITICAL_LOG). Prints CRITICAL as a Python literal for
app/analysis/level_test_table.py (the table there is this script's output at the default seed) and, per n, which
noise set each value. `--scale` multiplies the draws (0.1: a quick look).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from detection_calibration import noisy

from benchlens.app.analysis.level_test import between, maximum, statistic

SIZES = (8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 300, 450, 600)
ALPHAS = (1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5)
PHIS = (0.0, 0.3, 0.5, 0.7, 0.9)
CVS = (0.3, 1.0)
COUNTS = (1.0, 5.0)
MIN_EXCEEDING = 10
# the lag-1 correlations of 30-, 10-, 5- and 2-s means of an AR(1) noise of phi 0.9 a second
# (level_test.sample_phi): the caps of CRITICAL_CAPPED, and the noises' phis under them
CAPS = (0.208, 0.525, 0.709, 0.855)
CAPPED_PHIS = (0.0, 0.208, 0.3, 0.525, 0.709, 0.855)
# of draws(n): a series of 2-s samples has alphas twice those of 1-s samples at least
CAPPED_DRAWS = 0.5
# `--gauge`: the lag-1 correlations of a gauge read every 10, 5 and 2 s of that noise (an instant's
# value, not a mean: 0.9 ** k, level_test.sample_phi), more caps of CRITICAL_CAPPED made in a pass
# of their own (its own draws: the caps above keep theirs), and the noises' phis under them
GAUGE_CAPS = (0.349, 0.59, 0.81)
GAUGE_PHIS = (0.0, 0.208, 0.3, 0.349, 0.525, 0.59, 0.709, 0.81)


def draws(n: int, scale: float = 1.0) -> int:
    """Series per noise: enough for alpha = n / 100,000 (a tenth of one false drop per 10,000 s of
    1-s samples: the low sensitivity) from 32 to 64 samples (shorter ones: down to 2.5e-4, longer
    ones to 5e-4 up to 96 samples, 3.3e-3 beyond), whose maximum costs O(n^2) (300 samples:
    ~5 ms)."""
    want = 40_000 if n < 48 else 20_000 if n <= 64 else 15_000 if n <= 96 else 3_000
    return max(200, int(want * scale))


def maxima(
    rows: np.ndarray, stat: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray] = statistic
) -> np.ndarray:
    """maximum() of each row, a few rows at a time (a million intervals a batch)."""
    k = max(1, 1_000_000 // max(1, rows.shape[1] ** 2 // 2))
    return np.concatenate([np.atleast_1d(maximum(rows[i : i + k], stat)) for i in range(0, len(rows), k)])


def between_maxima(rows: np.ndarray) -> np.ndarray:
    """maxima of level_test.between: every interval with a side of at least MIN_LEN samples on each side."""
    return maxima(rows, between)


def noises(rng: np.random.Generator, n: int, k: int, phis: tuple[float, ...] = PHIS) -> dict[str, np.ndarray]:
    """The noises, k series each (rows)."""
    out = {f"AR(1) phi={phi} cv={cv}": noisy(rng, n, phi, cv, draws=k) for phi in phis for cv in CVS}
    out.update({f"Poisson mean={m}": rng.poisson(m, (k, n)).astype(float) for m in COUNTS})
    return out


def _latencies(rows: np.ndarray) -> np.ndarray:
    """Series read as latencies, as rises.py tests them: -log of their positive samples, each row's
    maximum over those alone (a row of n - z positive samples is a series of n - z)."""
    with np.errstate(divide="ignore"):
        x = -np.log(rows)
    positive = rows > 0
    out = np.full(len(rows), -np.inf)
    zeros = (~positive).sum(axis=1)
    for z in np.unique(zeros):  # rows with as many zeros are series of one length: batched
        pick = zeros == z
        out[pick] = maxima(x[pick][positive[pick]].reshape(int(pick.sum()), rows.shape[1] - int(z)))
    return out


def quantiles(
    n: int, seed: int, scale: float, log: bool = False, apart: bool = False
) -> list[tuple[float, float, str]]:
    """(alpha, critical T, the noise that set it) for the alphas the draws can measure (`apart`:
    of level_test.between, from draws of their own)."""
    k = draws(n, scale)
    rng = np.random.default_rng([seed, n, 8] if apart else [seed, n])
    read = _latencies if log else between_maxima if apart else maxima
    by_noise = {name: read(rows) for name, rows in noises(rng, n, k).items()}
    out = []
    for alpha in ALPHAS:
        if alpha * k < MIN_EXCEEDING:
            continue
        qs = {name: float(np.quantile(v[np.isfinite(v)], 1.0 - alpha)) for name, v in by_noise.items()}
        worst = max(qs, key=lambda name: qs[name])
        out.append((alpha, qs[worst], worst))
    return out


def _phi(name: str) -> float:
    return float(name.split("phi=")[1].split()[0]) if "phi=" in name else 0.0


def capped(n: int, seed: int, scale: float, gauge: bool = False) -> dict[float, list[tuple[float, float]]]:
    """Per cap of CAPS (GAUGE_CAPS): (alpha, critical T) for the alphas the draws can measure, the
    worst over the noises of phi up to the cap and the counts."""
    k = draws(n, scale * CAPPED_DRAWS)
    rng = np.random.default_rng([seed, n, 6 if gauge else 5])
    by_noise = {name: maxima(rows) for name, rows in noises(rng, n, k, GAUGE_PHIS if gauge else CAPPED_PHIS).items()}
    out: dict[float, list[tuple[float, float]]] = {}
    for cap in GAUGE_CAPS if gauge else CAPS:
        rows = []
        for alpha in ALPHAS:
            if alpha * k < MIN_EXCEEDING:
                continue
            q = max(
                float(np.quantile(v[np.isfinite(v)], 1.0 - alpha)) for name, v in by_noise.items() if _phi(name) <= cap
            )
            rows.append((alpha, q))
        out[cap] = rows
    return out


# `--means`: series of the means of every MEAN_STEPS seconds of the 1-s noises (AR(1) of phi up to
# 0.9 a second, clipped at 0 each second, then averaged: a rate from a counter's difference), the
# calibration's null itself as a sampled series sees it, instead of an AR(1) of the means' lag-1
# correlation per sample (CRITICAL_CAPPED), which keeps that correlation at every lag: 5-s means
# lose it faster from lag 2 on (26 samples at alpha 0.013: 7.66 against the cap's 8.74)
MEAN_STEPS = (2, 5, 10, 30)


def block_means(rng: np.random.Generator, n: int, k: int, step: int) -> dict[str, np.ndarray]:
    """The noises as series of n means of `step` seconds each, k series each (rows); the counts as
    counts per sample, as CRITICAL's."""
    out = {
        f"{step}-s means of AR(1) phi={phi} cv={cv}": noisy(rng, n * step, phi, cv, draws=k)
        .reshape(k, n, step)
        .mean(axis=2)
        for phi in PHIS
        for cv in CVS
    }
    out.update({f"Poisson mean={m}": rng.poisson(m, (k, n)).astype(float) for m in COUNTS})
    return out


def means(n: int, seed: int, scale: float, step: int) -> list[tuple[float, float]]:
    """(alpha, critical T) for series of n `step`-s means, the worst of the noises, for the alphas
    the draws can measure."""
    k = draws(n, scale * CAPPED_DRAWS)
    rng = np.random.default_rng([seed, n, 7, step])
    by_noise = {name: maxima(rows) for name, rows in block_means(rng, n, k, step).items()}
    return [
        (alpha, max(float(np.quantile(v[np.isfinite(v)], 1.0 - alpha)) for v in by_noise.values()))
        for alpha in ALPHAS
        if alpha * k >= MIN_EXCEEDING
    ]


def print_nested(name: str, key: str, tables: dict[float, dict[int, list[tuple[float, float]]]]) -> None:
    """A table of tables (key -> n -> rows) as the Python literal level_test_table.py holds."""
    print(f"{name}: dict[{key}, dict[int, tuple[tuple[float, float], ...]]] = {{")
    for outer, by_n in tables.items():
        print(f"    {outer}: {{")
        for n, rows in by_n.items():
            cells = ", ".join(f"({a:g}, {math.ceil(c * 100) / 100:.2f})" for a, c in rows)
            print(f"        {n}: ({cells}),")
        print("    },")
    print("}")


def print_means(sizes: list[int], seed: int, scale: float, steps: tuple[int, ...]) -> None:
    tables: dict[float, dict[int, list[tuple[float, float]]]] = {
        step: {n: means(n, seed, scale, step) for n in sizes} for step in steps
    }
    print_nested("CRITICAL_MEANS", "int", tables)


def print_capped(sizes: list[int], seed: int, scale: float, gauge: bool = False) -> None:
    by_n = {}
    for n in sizes:
        by_n[n] = capped(n, seed, scale, gauge)
        print(f"# n={n}: {draws(n, scale * CAPPED_DRAWS)} draws a noise", flush=True)
    caps = GAUGE_CAPS if gauge else CAPS
    print_nested("CRITICAL_CAPPED", "float", {cap: {n: by_n[n][cap] for n in sizes} for cap in caps})


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    ap.add_argument("--log", action="store_true", help="the table for latency rises (CRITICAL_LOG)")
    ap.add_argument("--capped", action="store_true", help="the tables of less correlated noises (CRITICAL_CAPPED)")
    ap.add_argument("--gauge", action="store_true", help="with --capped: the gauges' caps (GAUGE_CAPS)")
    ap.add_argument("--between", action="store_true", help="the table of a drop between two levels (CRITICAL_BETWEEN)")
    ap.add_argument("--means", type=int, nargs="*", help="the tables of CRITICAL_MEANS, for these steps (s)")
    args = ap.parse_args(argv)
    if args.means is not None:
        print_means(args.sizes, args.seed, args.scale, tuple(args.means) or MEAN_STEPS)
        return 0
    if args.capped:
        print_capped(args.sizes, args.seed, args.scale, args.gauge)
        return 0
    table = {}
    for n in args.sizes:
        rows = quantiles(n, args.seed, args.scale, args.log, args.between)
        table[n] = rows
        worst = ", ".join(f"{a:g}: {w}" for a, _, w in rows)
        print(f"# n={n}: {draws(n, args.scale)} draws a noise; {worst}", flush=True)
    name = "CRITICAL_LOG" if args.log else "CRITICAL_BETWEEN" if args.between else "CRITICAL"
    print(f"{name}: dict[int, tuple[tuple[float, float], ...]] = {{")
    for n, rows in table.items():
        cells = ", ".join(f"({a:g}, {math.ceil(c * 100) / 100:.2f})" for a, c, _ in rows)
        print(f"    {n}: ({cells}),")
    print("}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
