"""Change points across runs (app/analysis/changepoints.py) and one run as one number
(app/analysis/runstats.py)."""

from __future__ import annotations

import numpy as np
import pytest

from benchlens.app.analysis.changepoints import MIN_SIZE, detect, outliers, student_p, t_test
from benchlens.app.analysis.runstats import higher_is_better, run_stats


def noisy(levels: list[tuple[int, float]], cv: float = 0.01, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    x = np.concatenate([np.full(n, level) for n, level in levels])
    return x * (1 + rng.normal(0, cv, len(x)))


@pytest.mark.parametrize(
    ("t", "df", "p"),
    [(2.0, 10, 0.07338803477074037), (5.0, 48, 8.061665181471034e-06), (-1.3, 7, 0.23476783539237725)],
)
def test_student_p_is_scipys(t: float, df: int, p: float) -> None:
    """Two-sided p as scipy.stats.t gives it (values computed with scipy 1.17)."""
    assert student_p(t, df) == pytest.approx(p, rel=1e-9)


def test_t_test_of_equal_and_of_constant_samples() -> None:
    assert t_test(np.ones(5), np.ones(5)) == 1.0
    assert t_test(np.ones(5), np.full(5, 2.0)) == 0.0
    assert t_test(np.zeros(0), np.ones(3)) == 1.0


def test_a_step_is_found_where_it_is_with_before_after_and_p() -> None:
    (cp,) = detect(noisy([(60, 1000.0), (60, 940.0)]))
    assert cp.index == 60 and cp.before == pytest.approx(1000, rel=0.01) and cp.after == pytest.approx(940, rel=0.01)
    assert cp.change == pytest.approx(-0.06, abs=0.005) and cp.p < 1e-10


def test_several_steps_over_many_windows() -> None:
    found = [c.index for c in detect(noisy([(80, 1000.0), (70, 1060.0), (90, 990.0)]))]
    assert found == [80, 150]


def test_steady_history_has_no_change() -> None:
    assert detect(noisy([(300, 1000.0)], cv=0.03)) == []


def test_outlier_runs_are_left_out_of_the_detection() -> None:
    x = noisy([(50, 1000.0), (50, 940.0)])
    x[[20, 21, 70]] = [700.0, 1300.0, 600.0]  # broken runs
    assert {20, 21, 70} <= set(outliers(x).nonzero()[0].tolist())
    (cp,) = detect(x)
    assert cp.index == 50 and cp.before == pytest.approx(1000, rel=0.01) and cp.after == pytest.approx(940, rel=0.01)
    assert detect(x, guard=False)[0].after < 935  # without the guard a broken run pulls its side's level


def test_a_step_in_the_last_run_waits_for_confirmation() -> None:
    assert detect(noisy([(60, 1000.0), (1, 900.0)])) == []
    assert [c.index for c in detect(noisy([(60, 1000.0), (MIN_SIZE + 2, 900.0)]))] == [60]


def test_nan_runs_are_left_out_and_indices_stay_the_callers() -> None:
    x = noisy([(40, 1000.0), (40, 900.0)])
    x[10] = x[20] = np.nan
    assert [c.index for c in detect(x)] == [40]


def test_a_drop_inside_a_run_hardly_moves_its_median() -> None:
    t = np.arange(200.0)
    v = 1000 * (1 + np.random.default_rng(1).normal(0, 0.02, 200))
    v[:10] *= 0.3  # warm-up
    calm = run_stats(t, v)
    v[100:130] *= 0.5
    dropped = run_stats(t, v)
    assert abs(dropped.median / calm.median - 1) < 0.02 and dropped.mean < 0.95 * calm.mean
    assert calm.median == pytest.approx(1000, rel=0.01)  # the warm-up left out
    assert run_stats(t, v, (50.0, 90.0)).n <= 41


def test_which_way_is_better() -> None:
    assert higher_is_better("tps") and higher_is_better("qps") and higher_is_better("eps")
    assert not higher_is_better("lat_ms") and not higher_is_better("latency") and not higher_is_better("avg_rt")
