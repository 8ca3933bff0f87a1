"""Load steps: one rule (app.analysis.steps.find_steps) for the per-step table and for drop
detection's segmentation, from a thread or user count or from the runs of a concatenated log."""

from __future__ import annotations

import itertools

import numpy as np

from benchlens.app.analysis.steps import StepParams, find_steps, per_step


def stretches_of_three_or_more(t: np.ndarray, counts: np.ndarray) -> list[tuple[float, float]]:
    """Drop detection's segments as they were before the rule was shared: the (first, last) epochs
    of every stretch of one count at least 3 reports long; a NaN count is a stretch of its own."""
    out, start = [], 0
    for k in range(1, len(counts) + 1):
        if k == len(counts) or counts[k] != counts[k - 1]:  # NaN differs from itself too
            if k - start >= 3:
                out.append((float(t[start]), float(t[k - 1])))
            start = k
    return out


def test_step_cores_are_the_stretches_drop_detection_segmented_before() -> None:
    rng = np.random.default_rng(11)
    for _ in range(2000):
        n = int(rng.integers(0, 40))
        lengths = rng.integers(1, 7, size=n)
        levels = rng.choice([1.0, 2.0, 4.0, np.nan], size=n, p=[0.4, 0.3, 0.2, 0.1])
        counts = np.repeat(levels, lengths)
        t = np.arange(len(counts), dtype=float) + 1000.0
        cores = [s.core for s in find_steps(t, counts) if s.core]
        assert cores == stretches_of_three_or_more(t, counts), counts.tolist()


def test_steps_tile_the_series_and_hold_their_core() -> None:
    rng = np.random.default_rng(12)
    for _ in range(500):
        counts = np.repeat(rng.choice([1.0, 2.0, 8.0], size=12), rng.integers(1, 6, size=12))
        t = np.arange(len(counts), dtype=float)
        steps = find_steps(t, counts)
        assert steps[0].first == 0 and steps[-1].stop == len(t)
        assert all(a.stop == b.first for a, b in itertools.pairwise(steps))
        for s in steps:
            assert s.core is None or t[s.first] <= s.core[0] <= s.core[1] <= t[s.stop - 1]


def test_a_finishing_report_joins_its_step_and_stays_out_of_its_core() -> None:
    """sysbench prints a run's last report with the threads still running (`thds: 3` closing
    the 4-thread run of the prime10000 fixture)."""
    counts = np.array([1.0] * 9 + [2.0] * 10 + [4.0] * 9 + [3.0] + [8.0] * 9)
    t = np.arange(1.0, len(counts) + 1)
    steps = find_steps(t, counts)
    assert [(s.first, s.stop, s.level) for s in steps] == [(0, 9, 1), (9, 19, 2), (19, 29, 4), (29, 38, 8)]
    assert steps[2].core == (20.0, 28.0)  # the 3-thread report is not part of the step drops see


def test_user_levels_of_a_dbstress_log_are_steps_like_thread_counts() -> None:
    """dbstress writes its users per row; a level can come back after a restart. The steps are
    derived from that series by the same rule as sysbench's threads."""
    users = np.array([1.0] * 4 + [2.0] * 4 + [4.0] * 4 + [1.0] * 4)
    t = np.arange(10.0, 10.0 + 5 * len(users), 5.0)
    steps = find_steps(t, users)
    assert [s.level for s in steps] == [1, 2, 4, 1]
    assert [s.core for s in steps] == [(10.0, 25.0), (30.0, 45.0), (50.0, 65.0), (70.0, 85.0)]


def test_the_runs_of_a_log_are_its_steps() -> None:
    """Two runs of 2 reports each: too short to tell from a blip by the thread count alone, told
    apart by the importer's record of the log's runs; too short to be searched for drops."""
    t = np.arange(100.0, 105.0)
    counts = np.array([1.0, 1.0, 2.0, 2.0, 1.0])
    assert [(s.first, s.stop) for s in find_steps(t, counts)] == [(0, 5)]
    steps = find_steps(t, counts, [(99.0, 101.0), (101.0, 104.0)])
    assert [(s.first, s.stop, s.level, s.core) for s in steps] == [(0, 2, 1, None), (2, 5, 2, None)]


def test_step_params_change_the_steps() -> None:
    counts = np.array([4.0] * 10 + [3.0] + [8.0] * 10)
    t = np.arange(len(counts), dtype=float)
    tps = (t, counts * 100.0)
    assert len(find_steps(t, counts)) == 2
    assert [s.level for s in find_steps(t, counts, params=StepParams(min_step=1))] == [4, 3, 8]
    default = per_step((t, counts), tps, None)
    no_warmup = per_step((t, counts), tps, None, params=StepParams(warmup=0.0))
    assert default is not None and no_warmup is not None
    assert [s.n for s in default] == [8, 8] and [s.n for s in no_warmup] == [10, 10]
