"""A CPU share's rise is a cause only beyond the run's own wander over stretches as long as the
window (explain._StretchNoise, causes._moved): bench/rules_null.py measured 35 of 519 stretches of
runs with nothing injected passing CPU_POINTS alone (a rate-limited run's user CPU swings 18-19
points over tens of seconds), 2 with the wander counted."""

from __future__ import annotations

import math

import numpy as np

from benchlens.app.analysis.drops import Drop
from benchlens.app.analysis.evidence import Change, Evidence
from benchlens.app.analysis.explain import Explanation, explain
from benchlens.app.analysis.verdict import verdict
from benchlens.app.model import SeriesRef

USR = SeriesRef("mpstat", "%usr", "all")
T = np.arange(600.0)
WINDOW = Drop(300.0, 330.0, 0.3, 0.0, 0.0, 0.0)


def _explained(v: np.ndarray) -> tuple[Explanation, Evidence]:
    got = explain(WINDOW, [USR], lambda ref: (T, v) if ref == USR else None)
    return got, Evidence(got)


def test_a_rise_as_large_as_the_runs_own_wander_takes_no_cpu() -> None:
    rng = np.random.default_rng(3)
    # the user CPU wanders +-12 points over two minutes; the window sits on a crest
    v = 40.0 + 12.0 * np.sin(2 * np.pi * (T - 285.0) / 120.0) + rng.normal(0.0, 1.0, len(T))
    got, ev = _explained(v)
    c = ev.get("mpstat", "%usr", "all")
    # as independent samples (their spread, floored at 5 % of the level, over the root of 30): certain
    assert c is not None and c.during - c.before > 8.0 and c.change >= 5.0
    assert ev.beyond_noise(c) < 5.0
    assert "CPU taken" not in verdict(got)


def test_the_same_rise_on_a_steady_share_is_cpu_taken() -> None:
    rng = np.random.default_rng(3)
    v = 40.0 + rng.normal(0.0, 2.0, len(T))
    v[300:330] += 10.0
    got, ev = _explained(v)
    c = ev.get("mpstat", "%usr", "all")
    assert c is not None and ev.beyond_noise(c) > 10.0
    assert verdict(got).startswith("user CPU +9 points")


def test_without_enough_steady_samples_the_effect_stands_in() -> None:
    short = Drop(6.0, 10.0, 0.3, 0.0, 0.0, 0.0)
    t, v = T[:16], np.r_[np.full(6, 40.0), np.full(4, 60.0), np.full(6, 40.0)] + np.arange(16) % 2
    got = explain(short, [USR], lambda ref: (t, v))
    ev = Evidence(got)
    c = ev.get("mpstat", "%usr", "all")
    assert c is not None and got.noise is not None and math.isnan(got.noise(USR))
    assert ev.beyond_noise(c) == c.change


def test_a_flat_series_off_its_level_by_a_rounding_did_not_move() -> None:
    """Held-out dool-disk-writers-long-hot: 12 sessions connected all along, the window's weighted
    mean 12.000000000000002; with no wander at all, any difference would read as infinitely many
    standard errors (and a session that came, causes.session_came)."""
    ref = SeriesRef("dstat", "mysql5_conn.ThCon")
    c = Change(ref, 0.0, 12.0, 12.000000000000002)
    ev = Evidence(Explanation([], {ref: c}, noise=lambda r: 0.0))
    assert ev.beyond_noise(c) == 0.0
    assert ev.beyond_noise(Change(ref, 0.0, 12.0, 12.5)) == math.inf
