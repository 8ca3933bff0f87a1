"""A found drop's edges placed where its level changed (app/analysis/edges.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from benchlens.app.analysis.drops import drop_over
from benchlens.app.analysis.edges import placed


def _run(seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """100 s at 1 s of 1,550 tps +-5 %, 1,080 from 30 to 70 s (held-out dump-long-hot's levels)."""
    rng = np.random.default_rng(seed)
    t = 1_000.0 + np.arange(1, 101, dtype=np.float64)
    v = 1550.0 * (1 + 0.05 * rng.standard_normal(100))
    v[30:70] = 1080.0 * (1 + 0.05 * rng.standard_normal(40))
    return t, v


def test_edges_the_thresholds_placed_late_move_to_where_the_level_changed() -> None:
    """As recorded, dump-long-hot's rolling baseline, dragged down by the drop, put it at 38-67 s."""
    t, v = _run()
    found = replace(drop_over(t, v, 1550.0, 1_038.0, 1_067.0), tested=False, own_p=0.02, confirm_alpha=0.01)
    (d,) = placed(t, v, [found], (1_000.0, 1_100.0))
    assert (d.start, d.end) == (1_030.0, 1_070.0)
    assert d.depth > found.depth * 0.9 and d.baseline == 1550.0
    # which drops a run has, and how, was decided before: kept as it was
    assert (d.tested, d.own_p, d.confirm_alpha) == (False, 0.02, 0.01)


def test_an_edge_never_crosses_into_the_next_drop_nor_out_of_the_steady_span() -> None:
    t, v = _run(2)
    v[74:84] = 400.0  # a second drop right after the first
    first = drop_over(t, v, 1550.0, 1_040.0, 1_066.0)
    second = drop_over(t, v, 1550.0, 1_074.0, 1_084.0)
    a, b = placed(t, v, [first, second], (1_034.0, 1_100.0))
    assert a.start >= 1_034.0 and a.end < b.start
    assert (b.start, b.end) == (1_074.0, 1_084.0)


def test_a_drop_already_at_its_level_change_stays_the_same_object() -> None:
    t, v = _run(3)
    found = drop_over(t, v, 1550.0, 1_030.0, 1_070.0)
    assert placed(t, v, [found], (1_000.0, 1_100.0))[0] is found


def test_a_drop_that_deepens_halfway_keeps_its_first_step() -> None:
    """dool-disk-writers-long-smooth's levels: 11,800 statements a second, 7,700 from 34 s, 5,500
    from 44 s to 74 s. The first step is past the midpoint of the two levels: the start goes there,
    not to the deeper step (where the interval of largest T put the recorded run's: 40 s)."""
    rng = np.random.default_rng(4)
    t = 2_000.0 + np.arange(1, 101, dtype=np.float64)
    level = np.full(100, 11_800.0)
    level[34:44], level[44:74] = 7_700.0, 5_500.0
    v = level * (1 + 0.05 * rng.standard_normal(100))
    (d,) = placed(t, v, [drop_over(t, v, 11_800.0, 2_036.0, 2_071.0)], (2_000.0, 2_100.0))
    assert (d.start, d.end) == (2_034.0, 2_074.0)


def test_a_single_sample_across_the_midpoint_moves_no_edge() -> None:
    t, v = _run(5)
    v[25] = 900.0  # one slow second 5 s before the drop
    (d,) = placed(t, v, [drop_over(t, v, 1550.0, 1_031.0, 1_070.0)], (1_000.0, 1_100.0))
    assert d.start == 1_030.0
