"""The short series' test (app/analysis/level_test.py): its statistic, its critical values against
a fresh simulation, and what it decides on a short run."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from detection_calibration import noisy  # noqa: E402

from benchlens.app.analysis import drops, level_test, level_test_table  # noqa: E402
from benchlens.app.analysis.drops import detect  # noqa: E402
from benchlens.app.analysis.rises import rises  # noqa: E402


def _by_hand(x: np.ndarray, a: int, b: int) -> float:
    """T of [a, b] written out: the two-level fit, its residuals' variance and lag-1 correlation
    (pairs within one segment), the AR(1) long-run variance of the contrast."""
    n = len(x)
    inside = np.zeros(n, bool)
    inside[a : b + 1] = True
    m_in, m_out = x[inside].mean(), x[~inside].mean()
    r = x - np.where(inside, m_in, m_out)
    s2 = (r * r).sum() / (n - 2)
    same = inside[1:] == inside[:-1]
    phi = (r[1:] * r[:-1])[same].sum() / same.sum() / s2
    phi = min(max(phi + (1 + 3 * phi) / n, 0.0), 0.98)
    length = b - a + 1
    return float((m_out - m_in) / np.sqrt(s2 * (1 / length + 1 / (n - length)) * (1 + phi) / (1 - phi)))


def test_the_statistic_is_the_two_level_contrast_written_out() -> None:
    rng = np.random.default_rng(3)
    x = noisy(rng, 40, 0.5, 0.3)
    for a, b in [(0, 5), (10, 20), (30, 39), (0, 37), (2, 3)]:
        (got,) = level_test.statistic(x, np.array([a]), np.array([b]))
        assert got == pytest.approx(_by_hand(x, a, b), rel=1e-9)
    # too short, or leaving fewer than two samples outside: never an interval
    assert level_test.statistic(x, np.array([5, 0]), np.array([5, 38])).tolist() == [-np.inf, -np.inf]
    # a flat series has no noise to measure against
    assert level_test.maximum(np.full(20, 7.0)) == -np.inf


@pytest.mark.parametrize("n, alpha", [(24, 0.05), (64, 0.02), (128, 0.1)])
def test_the_table_holds_the_false_alarm_rate_on_fresh_noise(n: int, alpha: float) -> None:
    """A fresh simulation of the worst noise (AR(1) phi 0.9 at CV 1, clipped at 0), other seeds than
    the table's: the share of series whose maximum passes the critical value is alpha, within the
    simulation's spread (not far below either: a table twice too strict would lose real drops)."""
    draws = 1500
    rows = noisy(np.random.default_rng([99, n]), n, 0.9, 1.0, draws=draws)
    rate = np.mean([level_test.maximum(r) >= level_test.critical(n, alpha) for r in rows])
    spread = 3 * np.sqrt(alpha * (1 - alpha) / draws)
    assert alpha / 3 <= rate <= alpha + spread


def test_critical_values_grow_as_alpha_shrinks_and_are_held_beyond_the_table() -> None:
    assert level_test.critical(60, 0.001) > level_test.critical(60, 0.01) > level_test.critical(60, 0.1)
    assert level_test.critical(3, 0.01) == level_test.critical(min(level_test.CRITICAL), 0.01)
    assert level_test.critical(5000, 0.2) == level_test.critical(max(level_test.CRITICAL), 0.2)
    assert level_test.critical(60, 0.01, log=True) != level_test.critical(60, 0.01)


def test_a_short_run_tests_its_drops() -> None:
    """A 12-s stall in a 75-s run of +-4 % noise is significant on its own; a -35 % dip of 4 s in a
    run as noisy as a TPC-C commit count (CV 0.5) is a candidate only (run_drops keeps it when
    another series proves its cause)."""
    t = np.arange(1, 76, dtype=float)
    v = 1000 + 40 * np.random.default_rng(7).standard_normal(75)
    v[30:42] = 0.0
    (d,) = detect(t, v)
    assert (d.start, d.end) == (30.0, 42.0) and d.tested and d.untested() == ""
    rng = np.random.default_rng(11)
    noisy_run = 1000 * (1 + 0.15 * rng.standard_normal(75))
    noisy_run[40:44] *= 0.55
    found = detect(t, noisy_run)
    assert found and not any(f.tested for f in found)
    assert found[0].untested().startswith("not significant on its own")


def test_a_short_latency_series_tests_its_rises() -> None:
    t = np.arange(200, dtype=float)
    rng = np.random.default_rng(8)
    lat = 5.0 * np.exp(0.1 * rng.standard_normal(200))
    lat[100:160] *= 3.0
    (r,) = rises(t, lat)
    assert r.tested and abs(r.start - 99) <= 3 and abs(r.end - 159) <= 3
    # a latency that swings x2.2 from second to second: the rises its thresholds find are its own
    found = rises(t, 5.0 * np.exp(0.8 * rng.standard_normal(200)))
    assert found and not any(r.tested for r in found)


def test_the_calibration_script_runs_and_names_the_noise_that_set_each_value() -> None:
    """bench/level_test_calibration.py at a tiny scale (a bench nobody runs rots): a row per alpha
    the draws can measure, values falling as alpha grows, each set by one of its noises."""
    import level_test_calibration as cal

    rows = cal.quantiles(16, 1, 0.01)
    assert [a for a, _, _ in rows] == [a for a in cal.ALPHAS if a * cal.draws(16, 0.01) >= cal.MIN_EXCEEDING]
    crits = [c for _, c, _ in rows]
    assert crits == sorted(crits, reverse=True) and crits[-1] > 0
    assert all(w.startswith(("AR(1)", "Poisson")) for _, _, w in rows)
    assert cal.noises(np.random.default_rng(1), 10, 3)["AR(1) phi=0.9 cv=1.0"].shape == (3, 10)
    apart = [c for _, c, _ in cal.quantiles(16, 1, 0.01, apart=True)]  # CRITICAL_BETWEEN's
    assert apart == sorted(apart, reverse=True) and apart != crits


def test_every_table_asks_more_as_alpha_falls() -> None:
    """The critical values rise as alpha falls in every row of every table (critical extrapolates
    below a row's smallest alpha from its two smallest, and p_value inverts it: both need it)."""
    tables = level_test_table
    families = {"CRITICAL": tables.CRITICAL, "CRITICAL_LOG": tables.CRITICAL_LOG}
    families |= {f"CAPPED {c}": t for c, t in tables.CRITICAL_CAPPED.items()}
    families |= {f"MEANS {s}": t for s, t in tables.CRITICAL_MEANS.items()}
    families["CRITICAL_BETWEEN"] = tables.CRITICAL_BETWEEN
    for name, table in families.items():
        for n, rows in table.items():
            alphas = [a for a, _ in rows]
            crits = [c for _, c in rows]
            assert alphas == sorted(alphas) and all(x > y for x, y in itertools.pairwise(crits)), (name, n)


def test_the_strongest_stretch_apart_never_holds_a_sample_set_apart() -> None:
    """strongest_apart: the strongest stretch among those holding no marked sample (a drop left
    out of the rest, another candidate), the plain strongest when none is marked."""
    rng = np.random.default_rng(3)
    x = 100.0 + rng.standard_normal(80)
    x[20:30] -= 8.0
    x[50:60] -= 5.0
    use = np.ones(80, bool)
    none = np.zeros(80, bool)
    assert level_test.strongest_apart(x, use, none) == level_test.strongest(x, use)
    apart = none.copy()
    apart[20:30] = True
    left = use & ~apart
    _, (a, b) = level_test.strongest_apart(x, left, apart)
    assert not apart[a : b + 1].any() and abs(a - 50) <= 1 and abs(b - 59) <= 1, (a, b)
    apart[55] = True  # a marked sample inside: the stretch stays on one side of it
    _, (a, b) = level_test.strongest_apart(x, left, apart)
    assert not apart[a : b + 1].any()


def _between_by_hand(x: np.ndarray, a: int, b: int) -> float:
    """`between` of [a, b] written out: three levels fitted (before, during, after), their
    residuals' variance and lag-1 correlation (pairs within one segment), the smaller of the two
    sides' contrasts."""
    n = len(x)
    parts = (x[:a], x[a : b + 1], x[b + 1 :])
    r = np.concatenate([p - p.mean() for p in parts])
    s2 = (r * r).sum() / (n - 3)
    phi = sum(((p - p.mean())[1:] * (p - p.mean())[:-1]).sum() for p in parts) / (n - 3) / s2
    phi = min(max(phi + (1 + 3 * phi) / n, 0.0), 0.98)
    scale = s2 * (1 + phi) / (1 - phi)
    left, inside, right = parts
    return float(
        min(
            (side.mean() - inside.mean()) / np.sqrt(scale * (1 / len(inside) + 1 / len(side))) for side in (left, right)
        )
    )


def test_between_is_the_three_level_contrast_written_out() -> None:
    rng = np.random.default_rng(4)
    x = noisy(rng, 40, 0.5, 0.3)
    for a, b in [(2, 5), (10, 20), (30, 37), (2, 3)]:
        (got,) = level_test.between(x, np.array([a]), np.array([b]))
        assert got == pytest.approx(_between_by_hand(x, a, b), rel=1e-9)
    # fewer than MIN_LEN samples on a side: an interval `statistic` has (a drop at an end)
    assert level_test.between(x, np.array([1, 0, 10]), np.array([5, 5, 38])).tolist() == [-np.inf] * 3


@pytest.mark.parametrize("n, alpha", [(24, 0.05), (64, 0.02)])
def test_the_between_table_holds_the_false_alarm_rate_on_fresh_noise(n: int, alpha: float) -> None:
    """CRITICAL_BETWEEN on a fresh draw of the noise that set it (AR(1) phi 0.9 at CV 1)."""
    draws = 1500
    rows = noisy(np.random.default_rng([98, n]), n, 0.9, 1.0, draws=draws)
    rate = np.mean(
        [level_test.maximum(r, level_test.between) >= level_test.critical(n, alpha, apart=True) for r in rows]
    )
    spread = 3 * np.sqrt(alpha * (1 - alpha) / draws)
    assert alpha / 3 <= rate <= alpha + spread


def test_a_drop_between_two_levels_is_tested_against_each() -> None:
    """Held-out hot-rows-short-hot's shape: ~1,420 commits a second, a -33 % drop of 12 s, then
    ~1,550. Against the rest as one level the step between the two reads as noise; against each
    side's level (drops._between_levels, at alpha / BETWEEN_SHARE) the drop is proven."""
    rng = np.random.default_rng(5)
    v = np.concatenate([np.full(30, 1420.0), np.full(12, 980.0), np.full(33, 1550.0)]) + 30 * rng.standard_normal(75)
    use = np.ones(75, bool)
    ((proven, _, _),) = level_test.judged(v, use, [(30, 41)], 1.0)
    assert not proven
    share = drops.BETWEEN_SHARE
    t3, m = level_test.strength(v, use, 30, 41, apart=True)
    assert t3 >= level_test.critical(m, level_test.alpha(m, 1.0) / share, apart=True)
    (d,) = detect(np.arange(1, 76, dtype=float), v)
    assert d.tested and abs(d.start - 30) <= 1 and abs(d.end - 42) <= 1


def test_a_drop_whose_run_comes_back_below_its_level_is_tested_up_to_its_end() -> None:
    """dool bulk-insert-long-hot's shape: a level, a -40 % drop, then back to only -23 % for the
    rest of the run. The thresholds take the drop and the level after it as one stretch to the
    end, which has no after side; the strongest stretch between two levels meeting it does, and
    is the drop (level_test.strongest_between)."""
    rng = np.random.default_rng(8)
    v = np.concatenate([np.full(30, 1500.0), np.full(20, 900.0), np.full(30, 1150.0)]) + 60 * rng.standard_normal(80)
    use = np.ones(80, bool)
    _, (a, b) = level_test.strongest_between(v, use, 30, 79)
    assert (a, b) == (30, 49)
    assert level_test.strongest_between(v, use, 0, 10)[1][0] <= 10  # it meets the span asked
    # a proven drop set apart (out of the samples, and marked): no stretch reaches across it
    apart = np.zeros(80, bool)
    apart[40:43] = True
    _, (a, b) = level_test.strongest_between(v, use & ~apart, 30, 79, apart=apart)
    assert not apart[a : b + 1].any()
    (d,) = [d for d in detect(np.arange(1, 81, dtype=float), v) if d.start < 50]
    assert d.tested and abs(d.start - 30) <= 1 and abs(d.end - 50) <= 1, d


# sysbench's tps of flushing-short-writes (bench/drop_quality/runs), 1-s reports: the writes' first
# 3 s at ~10,000, then ~3,600 with stalls, the disk throttled from 30 s to 42 s
_FLUSHING_SHORT_WRITES_TEXT = (
    "9874 10519 9533 3977 0 3466 3510 2132 1647 787 2981 0 0 3477 3741 3844 3016 3770 439 2390 2178 4477 "
    "2452 3190 3732 4626 3591 6727 5035 3837 2406 0 0 0 281 3479 0 0 0 0 0 3703 2651 935 1012 4046 5908 "
    "5951 5050 2545 4931 3700 364 3891 2242 1412 3656 4661 4848 1731 3738 3729 4005 2343 3636 4854 3776 "
    "3743 5664 1997 3798 3723 3473 3294 4419"
)
FLUSHING_SHORT_WRITES = np.array(_FLUSHING_SHORT_WRITES_TEXT.split(), float)


def test_a_short_high_start_is_not_a_drop_of_the_rest_of_the_run() -> None:
    """The strongest stretch of flushing-short-writes is the rest of the run below its first 3 s,
    which the warm-up's median of 11 samples does not see: not a candidate (drops._no_level_before),
    the stalls of 31-44 s are (from 1 s)."""
    found = detect(np.arange(1, 76, dtype=float), FLUSHING_SHORT_WRITES)
    assert all(d.start >= 5 for d in found), found
    assert any(abs(d.start - 31) <= 1 and abs(d.end - 43) <= 1 for d in found), found


# dool-bulk-insert-long-smooth's commits a second (bench/drop_quality/runs: the server's own
# throughput of a dool capture, no benchmark log): the capture starts before the benchmark is at
# its level (~10,000 for 2 s, ~0 for 12 s, the level from 18 s), another client's INSERT ... SELECT
# copies from 29 s to 70 s
_DOOL_BULK_INSERT_LONG_SMOOTH_TEXT = (
    "8959 12592 5413 0 0 18 36 162 72 306 126 990 2796 138 6 4260 6424 6194 10188 14161 12934 10874 15054 "
    "15606 14201 17035 11116 12767 12402 12628 8267 4982 4202 7417 6581 4449 6898 7242 7349 5471 4864 "
    "5404 4341 5509 7064 7170 4990 6793 8806 8396 8205 8415 4219 7320 7040 6305 6939 5475 4899 7124 6989 "
    "8198 8071 6987 7697 6103 6962 7564 8195 3368 8663 9481 12133 11721 12494 12651 14363 13299 11115 "
    "13421 12451 12563 10001 10584 12673 12081 12334 13583 13035 12136 11700 9033 10109 9352 8640 8643 "
    "11985 12573 12069"
)
DOOL_BULK_INSERT_LONG_SMOOTH = np.array(_DOOL_BULK_INSERT_LONG_SMOOTH_TEXT.split(), float)


def test_the_warm_up_ends_where_the_level_is_reached_and_held() -> None:
    """A first sample at the level is not the level reached when the series falls away again:
    the warm-up ends at 18 s (drops._settled, ahead), and the copies' drop, which the start-up's
    zeros outdid as the strongest stretch, is proven on its own."""
    t = np.arange(0, 99, dtype=float)
    found = drops.detection(t, DOOL_BULK_INSERT_LONG_SMOOTH)
    assert found.span[0] >= 17.0
    (d,) = found.drops
    assert d.tested and abs(d.start - 29) <= 1 and abs(d.end - 70) <= 1, d
