"""A second series' confirmation (app/analysis/confirm.py) and what it stands on in level_test: the
two tests' split of alpha (judged), the noise's correlation at a coarser step (sample_phi) and the
critical values of those less correlated noises against fresh noise."""

from __future__ import annotations

import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from detection_calibration import ar1, noisy  # noqa: E402

from benchlens.app.analysis import level_test  # noqa: E402
from benchlens.app.analysis.causes import Finding  # noqa: E402
from benchlens.app.analysis.confirm import binomial_tail, count_p, key_p  # noqa: E402
from benchlens.app.analysis.drops import Drop  # noqa: E402
from benchlens.app.analysis.evidence import Change  # noqa: E402
from benchlens.app.analysis.explain import Reference  # noqa: E402
from benchlens.app.analysis.run_drops import _cause_confirms, _holm  # noqa: E402
from benchlens.app.model import SeriesRef  # noqa: E402


def test_sample_phi_is_the_correlation_of_block_means() -> None:
    """A counter read every 5 s of a noise correlated at 0.9 from second to second: the simulated
    lag-1 correlation of the 5-s means is what sample_phi says."""
    x = ar1(np.random.default_rng(5), 5 * 4000, 0.9).reshape(4000, 5).mean(axis=1)
    assert level_test.sample_phi(5) == pytest.approx(np.corrcoef(x[:-1], x[1:])[0, 1], abs=0.03)
    assert level_test.sample_phi(1) == pytest.approx(0.9)
    assert level_test.sample_phi(0.5) == pytest.approx(0.9)  # a sub-second step is taken as 1 s
    assert level_test.sample_phi(60) < 0.1


def test_sample_phi_of_a_gauge_is_the_correlation_of_instants() -> None:
    """A gauge read every 2 s (sessions connected, the history list) of that noise is its value at
    one instant, not a mean: correlated at 0.9 ** 2 from one reading to the next, less than a 2-s
    mean's 0.86."""
    x = ar1(np.random.default_rng(7), 2 * 8000, 0.9)[::2]
    assert level_test.sample_phi(2, gauge=True) == pytest.approx(np.corrcoef(x[:-1], x[1:])[0, 1], abs=0.03)
    assert level_test.sample_phi(2, gauge=True) == pytest.approx(0.81)
    assert level_test.sample_phi(2, gauge=True) < level_test.sample_phi(2)
    assert level_test.sample_phi(1, gauge=True) == pytest.approx(0.9)


def test_a_coarser_step_asks_less_and_never_more() -> None:
    """26 samples at 5 s are held to the table of noises up to sample_phi(5), at 2 s to that of
    sample_phi(2), at 1 s (and at 1.5 s, between the caps) to the table of every noise; a
    latency always to its own table."""
    assert level_test.critical(26, 0.02, step=5.0) < level_test.critical(26, 0.02, step=2.0)
    assert level_test.critical(26, 0.02, step=2.0) < level_test.critical(26, 0.02, step=1.0)
    assert level_test.critical(26, 0.02, step=1.5) == level_test.critical(26, 0.02, step=1.0)
    assert level_test.critical(26, 0.02, log=True, step=5.0) == level_test.critical(26, 0.02, log=True)
    # an alpha the capped table did not measure falls back to the table of every noise
    assert level_test.critical(26, 1e-4, step=5.0) == level_test.critical(26, 1e-4, step=1.0)


@pytest.mark.parametrize("n, alpha", [(26, 0.05), (64, 0.1)])
def test_the_capped_table_holds_on_5_s_means_of_1_s_noise(n: int, alpha: float) -> None:
    """The null a 5-s series is held to, drawn as it arises: 5-s means of AR(1) noise of phi 0.9 a
    second, clipped at 0 at CV 1 (other seeds than the table's). The share of series whose maximum
    passes is alpha or less, and not far below (a table twice too strict would prove nothing)."""
    draws = 1500
    x = ar1(np.random.default_rng([97, n]), 5 * n, 0.9, draws=draws).reshape(draws, n, 5).mean(axis=2)
    rows = np.maximum(0.0, 1.0 + x / x.std())
    crit = level_test.critical(n, alpha, step=5.0)
    rate = float(np.mean([level_test.maximum(r) >= crit for r in rows]))
    assert alpha / 4 <= rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / draws)


@pytest.mark.parametrize("n, alpha", [(39, 0.05), (26, 0.1)])
def test_the_gauge_table_holds_on_instants_of_1_s_noise(n: int, alpha: float) -> None:
    """A gauge read every 2 s of AR(1) noise of phi 0.9 a second, clipped at 0 at CV 1 (other seeds
    than the table's): the share of series whose maximum passes its critical value is alpha or
    less, and not far below; and it asks less than a 1-s series. (Not less than a 2-s mean's: the
    means of two seconds clipped at 0 each have shorter runs of zeros than instants clipped so, and
    drawn as they are (CRITICAL_MEANS) ask less.)"""
    draws = 1500
    x = ar1(np.random.default_rng([98, n]), 2 * n, 0.9, draws=draws)[:, ::2]
    rows = np.maximum(0.0, 1.0 + x / x.std())
    crit = level_test.critical(n, alpha, step=2.0, gauge=True)
    rate = float(np.mean([level_test.maximum(r) >= crit for r in rows]))
    assert alpha / 4 <= rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / draws)
    assert crit < level_test.critical(n, alpha, step=1.0)


def test_judged_splits_alpha_among_the_candidates_above_even_odds() -> None:
    """A drop its series proves needs no second series; each other one above chance at even odds
    (on the series without the other candidates) gets alpha / k, one below even odds 0."""
    rng = np.random.default_rng(6)
    v = 100 * (1 + 0.05 * rng.standard_normal(80))
    v[20:40] *= 0.3  # proven by itself
    v[50:53] *= 0.8  # short: above even odds, not proven
    v[65:67] *= 0.97  # within the noise
    use = np.ones(80, bool)
    said = level_test.judged(v, use, [(20, 39), (50, 52), (65, 66)], 1.0)
    assert [(ok, second) for ok, second, _ in said] == [(True, 0.0), (False, level_test.alpha(80, 1.0)), (False, 0.0)]
    assert said[0][2] == 1.0 and said[1][2] <= level_test.PLAUSIBLE < said[2][2]  # its own p: 1 once proven


def test_judged_proves_step_down_and_stops_at_the_first_that_fails() -> None:
    """A -90 % drop and a -40 % one: the second reads T 0.6 with the first in its rest and 24
    without it, so it is proven once the first is; a noise stretch after them is not."""
    rng = np.random.default_rng(8)
    v = 100 * (1 + 0.05 * rng.standard_normal(200))
    v[20:40] *= 0.1
    v[100:110] *= 0.6
    use = np.ones(200, bool)
    assert level_test.strength(v, use, 100, 109)[0] < level_test.critical(200, level_test.alpha(200, 1.0))
    said = level_test.judged(v, use, [(20, 39), (100, 109), (150, 151)], 1.0)
    assert [ok for ok, _, _ in said] == [True, True, False]


def test_judged_goes_on_past_a_drop_a_second_series_proved() -> None:
    """A staircase (100 -> 57 -> 0, dool-rebuild-long-smooth's shape): with the -43 % step unproven
    in the rest, the stall after it reads T 3-4 and neither is proven; once a second series proved
    the step (`proven`), the stall is tested without it, and proven. A stretch of noise after the
    staircase is not, either way."""
    rng = np.random.default_rng(12)
    v = 100 * (1 + 0.05 * rng.standard_normal(140))
    v[35:74] *= 0.57
    v[74:109] = 0.0
    use = np.ones(140, bool)
    spans = [(35, 73), (74, 108), (120, 121)]
    assert [ok for ok, _, _ in level_test.judged(v, use, spans, 1.0)] == [False, False, False]
    said = level_test.judged(v, use, spans, 1.0, proven=[True, False, False])
    assert [ok for ok, _, _ in said] == [True, True, False]
    assert said[0][2] == 1.0  # the proven one is not tested again


def test_a_key_confirms_by_its_own_change_where_it_meets_the_drop() -> None:
    """A key series sampled every 2 s whose level doubles from 1030 to 1070 s confirms a drop of
    1040-1060 s (its stretch is its own: the drop's edges are not the key's); not the same series
    calm, nor a change claimed the other way, nor a change that does not meet the drop."""
    rng = np.random.default_rng(7)
    t = 1000.0 + 2.0 * np.arange(1, 61)
    calm = 10 * (1 + 0.1 * rng.standard_normal(60))
    x = calm.copy()
    x[(t > 1030) & (t <= 1070)] *= 2.0
    ref = Reference(1000.0, 1120.0, ((1040.0, 1060.0),))
    assert key_p(t, x, (1040.0, 1060.0), ref, up=True) <= 0.002
    assert key_p(t, x, (1040.0, 1060.0), ref, up=False) == 1.0
    assert key_p(t, calm, (1040.0, 1060.0), ref, up=True) > 0.1
    assert key_p(t, x, (1090.0, 1110.0), ref, up=True) > 0.1


def test_p_value_is_the_alpha_at_which_t_is_critical() -> None:
    for n, alpha, step in [(26, 0.013, 5.0), (75, 0.0075, 1.0), (300, 0.03, 1.0)]:
        t = level_test.critical(n, alpha, step=step)
        assert level_test.p_value(n, t * 1.0001, step=step) == pytest.approx(alpha, rel=0.02)
    assert level_test.p_value(26, 1.0, step=5.0) == 1.0  # below even odds
    # beyond the table: extrapolated, smaller as T grows, never below P_MIN
    smallest, largest = level_test.CRITICAL[64][0]
    assert level_test.critical(64, smallest / 10) > largest
    assert level_test.p_value(64, largest * 1.2) < smallest
    assert level_test.p_value(64, 1e6) == level_test.P_MIN


def test_combined_is_fishers_method_for_two() -> None:
    """On noise alone (two independent uniform p-values) the combination is below alpha with
    probability alpha; a product that is small from both sides passes where neither alone would."""
    rng = np.random.default_rng(11)
    u = rng.uniform(size=(200_000, 2))
    got = np.array([level_test.combined(a, b) for a, b in u])
    for alpha in (0.01, 0.05):
        assert float(np.mean(got <= alpha)) == pytest.approx(alpha, abs=4 * np.sqrt(alpha / len(u)))
    assert level_test.combined(0.06, 0.02) < 0.0135 and level_test.combined(1.0, 1.0) == 1.0


def test_holm_confirms_the_rest_at_a_larger_alpha_once_one_is_confirmed() -> None:
    p = {0: 0.001, 1: 0.004, 2: 0.3}  # the candidates' p-values under their keys' tests
    asked: list[tuple[int, float]] = []

    def confirms(i: int, a: float) -> bool:
        asked.append((i, a))
        return p[i] <= a

    # alpha 0.009 shared by three: 0.003 each; 0 passes, then 1 at 0.0045, then 2 at 0.009
    assert sorted(_holm({0: 0.003, 1: 0.003, 2: 0.003}, confirms)) == [0, 1]
    assert asked[-1] == (2, pytest.approx(0.009))
    assert _holm({0: 0.003, 1: 0.003}, lambda i, a: False) == []
    assert _holm({}, confirms) == []


def test_holm_keeps_the_false_alarm_rate_of_its_first_round() -> None:
    """On noise alone (uniform p-values, independent) some candidate is confirmed with probability
    the alphas' sum at most: what Bonferroni gave."""
    rng = np.random.default_rng(23)
    alphas = {0: 0.01, 1: 0.01, 2: 0.02}
    draws = rng.uniform(size=(40_000, 3))
    hits = sum(bool(_holm(alphas, lambda i, a, p=p: p[i] <= a)) for p in draws)
    rate = hits / len(draws)
    assert rate <= 0.04 + 3 * (0.04 * 0.96 / len(draws)) ** 0.5
    assert rate > 0.035  # not below it either: the first round is Bonferroni's


@pytest.mark.parametrize("n, alpha", [(24, 0.05), (48, 0.1)])
def test_the_means_table_holds_on_means_of_clipped_1_s_noise(n: int, alpha: float) -> None:
    """The null of a 5-s counter's rate drawn as the calibration means it, on other seeds than the
    table's: 5-s means of AR(1) noise of phi 0.9 a second at CV 1, clipped at 0 each second. The
    share of series whose maximum passes is alpha or less and not far below, and the table asks
    less than the AR(1) of the means' lag-1 correlation (CRITICAL_CAPPED) would."""
    draws = 1500
    rows = noisy(np.random.default_rng([99, n]), 5 * n, 0.9, 1.0, draws=draws).reshape(draws, n, 5).mean(axis=2)
    crit = level_test.critical(n, alpha, step=5.0)
    rate = float(np.mean([level_test.maximum(r) >= crit for r in rows]))
    assert alpha / 4 <= rate <= alpha + 3 * np.sqrt(alpha * (1 - alpha) / draws)
    cap = min(c for c in level_test.CRITICAL_CAPPED if c >= level_test.sample_phi(5) - 1e-3)
    assert crit < dict(level_test.CRITICAL_CAPPED[cap][n])[alpha]


def _keyed(key: SeriesRef, also: SeriesRef | None) -> Finding:
    up = Change(key, 5.0, 1.0, 2.0)
    return Finding("disk", "io", up, also=(Change(also, 5.0, 0.2, 0.9),) if also is not None else ())


def test_a_cause_in_two_series_confirms_by_either_at_twice_its_p() -> None:
    """DBPA's I/O saturation (sync() in a loop): the CPUs' iowait rose little, the system CPU the
    syncs spend x4. A cause that shows in two series (Finding.also) is confirmed by the stronger,
    its p-value doubled (Bonferroni over the two); with the iowait alone, not."""
    t = 5.0 * np.arange(1.0, 27.0)
    wait, kernel = SeriesRef("dstat", "cpu.wai", "total"), SeriesRef("dstat", "cpu.sys", "total")
    rng = np.random.default_rng(4)
    series = {wait: 1.5 + 0.3 * rng.standard_normal(26), kernel: 0.2 + 0.05 * rng.standard_normal(26)}
    series[kernel][6:20] += 0.7
    d = Drop(t[5], t[19], 0.4, 10.0, 2.0, 28.0, tested=False, confirm_alpha=0.013, own_p=0.2)
    steady = Reference(0.0, t[-1] + 1, ((d.start, d.end),))
    others = [wait, kernel]
    load = lambda ref: (t, series[ref])  # noqa: E731
    assert _cause_confirms(_keyed(wait, kernel), d, load, steady, others, d.confirm_alpha)
    assert not _cause_confirms(_keyed(wait, None), d, load, steady, others, d.confirm_alpha)
    p_kernel = key_p(t, series[kernel], (d.start, d.end), steady, True)
    assert level_test.combined(d.own_p, 2 * p_kernel) <= d.confirm_alpha < level_test.combined(d.own_p, 1.0)


def test_two_keys_keep_the_false_alarm_rate_on_noise() -> None:
    """Two independent noises as a cause's two series and a candidate's own p uniform: some key
    confirms the candidate at alpha at most alpha of the time (the least of two p-values doubled)."""
    t = 5.0 * np.arange(1.0, 27.0)
    wait, kernel = SeriesRef("dstat", "cpu.wai", "total"), SeriesRef("dstat", "cpu.sys", "total")
    rng = np.random.default_rng(41)
    d0 = Drop(t[5], t[19], 0.4, 10.0, 2.0, 28.0, tested=False)
    steady = Reference(0.0, t[-1] + 1, ((d0.start, d0.end),))
    draws, alpha, hits = 600, 0.1, 0
    for _ in range(draws):
        series = {r: 1.0 + 0.3 * ar1(rng, 26, 0.5) for r in (wait, kernel)}
        d = replace(d0, own_p=float(rng.uniform()))
        hits += _cause_confirms(_keyed(wait, kernel), d, lambda r, s=series: (t, s[r]), steady, [wait, kernel], alpha)
    assert hits / draws <= alpha + 3 * (alpha * (1 - alpha) / draws) ** 0.5


def test_statements_counted_now_and_then_confirm_as_arrivals() -> None:
    """A key at 0 in every steady sample that counts seven joins one at a time in the 21 of 46
    samples a drop covers (held-out join-long-tpcc, rates of a 2-s status loop): p = 0.46^7 as
    arrivals, where level_test, holding the series to every noise it is calibrated on, reads
    weakly; the same rates claimed down, or not whole counts, are not tested as counts."""
    t = 1000.0 + 2.0 * np.arange(1, 47)
    x = np.zeros(46)
    x[[12, 15, 18, 21, 24, 27, 30]] = 1 / 2.0
    span = (t[11] - 2.0, t[31])
    ref = Reference(1000.0, 1100.0, (span,))
    assert key_p(t, x, span, ref, up=True, event=True) == pytest.approx((21 / 46) ** 7, rel=1e-6)
    assert key_p(t, x, span, ref, up=True) > 0.05
    assert key_p(t, x * 1.3, span, ref, up=True, event=True) > 0.05
    assert key_p(t, x, span, ref, up=False, event=True) == 1.0


def test_a_loop_counted_sample_after_sample_is_a_level_not_arrivals() -> None:
    """A FLUSH TABLES loop counted 12 a second in every sample of a window is one bunch: no
    arrival test (level_test's), nor where most samples count some; statements every other sample
    are arrivals."""
    inside = np.zeros(40, bool)
    inside[12:30] = True
    counts = np.where(inside, 12.0, 0.0)
    assert count_p(counts, inside, np.ones(40)) is None
    counts[1::2] = 0.0
    assert count_p(counts, inside, np.ones(40)) == pytest.approx(binomial_tail(9, 9, 18 / 40))
    counts[:12] = 3.0
    assert count_p(counts, inside, np.ones(40)) is None


def test_binomial_tail_is_the_sum_of_its_terms() -> None:
    for k, n, f in ((0, 5, 0.3), (3, 10, 0.2), (7, 7, 0.46), (40, 1000, 0.02), (11, 10, 0.5)):
        want = sum(math.comb(n, j) * f**j * (1 - f) ** (n - j) for j in range(k, n + 1)) if k > 0 else 1.0
        assert binomial_tail(k, n, f) == pytest.approx(want, rel=1e-9, abs=1e-300)


@pytest.mark.parametrize("rate", [0.05, 0.3])
def test_arrivals_keep_the_false_alarm_rate_when_statements_come_in_bunches(rate: float) -> None:
    """Statements in bunches over several samples (a job that issues them for a while, on and off
    at random): counted one by one, a window meeting a bunch reads far beyond chance (P(p <= 0.05)
    near 0.1); as arrivals, at most the nominal rate. Independent draws of 50 samples, a window
    of 3-25 of them at random."""
    rng = np.random.default_rng(5)
    draws, alpha, hits = 3000, 0.05, 0
    for _ in range(draws):
        on, state = np.zeros(50, bool), rng.random() < 0.2
        for i in range(50):
            state = bool(rng.random() < 0.8) if state else bool(rng.random() < rate)
            on[i] = state
        counts = rng.poisson(2.0 * on).astype(float)
        length = int(rng.integers(3, 26))
        start = int(rng.integers(0, 50 - length))
        inside = np.zeros(50, bool)
        inside[start : start + length] = True
        p = count_p(counts, inside, np.ones(50))
        hits += p is not None and p <= alpha
    assert hits / draws <= alpha + 3 * (alpha * (1 - alpha) / draws) ** 0.5
