"""A drop in phases (run_drops._phases_joined): the throughput went from one level below its
baseline to another with no sample back at it, one excursion, told as one drop whose phases keep
their own explanations; drops with the throughput back at its level between them stay apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchlens.app.analysis.drops import Drop
from benchlens.app.analysis.run_drops import RunDrop, _phases_joined, run_findings
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import ROOT

REF = SeriesRef("sysbench", "tps")


def series() -> tuple[np.ndarray, np.ndarray]:
    """1,000 tps; -35 % over 30-60 s, 0 over 60-120 s, 1,000 again after."""
    t = np.arange(1.0, 181.0)
    v = np.full(len(t), 1000.0)
    v[30:60] = 650.0
    v[60:120] = 0.0
    return t, v


def one(start: float, end: float, depth: float) -> RunDrop:
    return RunDrop(REF, Drop(start, end, depth, 1000.0, 0.0, depth * (end - start)), [])


def test_two_levels_with_no_sample_between_are_one_drop_in_two_phases() -> None:
    t, v = series()
    first, second = one(30.0, 60.0, 0.35), one(60.0, 120.0, 1.0)
    (joined,) = _phases_joined([second, first], t, v)
    assert (joined.drop.start, joined.drop.end) == (30.0, 120.0) and joined.phases == (first, second)
    assert joined.drop.baseline == 1000.0 and joined.drop.depth == 1.0  # the median of 30 s at 650, 60 at 0
    # its label says the levels it went through, not the median's -100 % alone
    assert (
        joined.drop.label() == "\u221235% \u2192 \u2212100% \u00b7 90 s"
        and first.drop.label() == "\u221235% \u00b7 30 s"
    )
    levels = "\u221235% \u00b7 30 s, then \u2212100% \u00b7 60 s"
    assert joined.verdict().endswith(f"in 2 phases, none back at the baseline: {levels}"), joined.verdict()
    phases = joined.as_json()["phases"]
    assert [(p["start"], p["end"], p["label"]) for p in phases] == [  # type: ignore[index, union-attr]
        (30.0, 60.0, "\u221235% \u00b7 30 s"),
        (60.0, 120.0, "\u2212100% \u00b7 60 s"),
    ]


def test_a_third_level_joins_the_same_drop() -> None:
    t, v = series()
    parts = [one(30.0, 45.0, 0.35), one(45.0, 60.0, 0.35), one(60.0, 120.0, 1.0)]
    (joined,) = _phases_joined(parts, t, v)
    assert joined.phases == tuple(parts) and (joined.drop.start, joined.drop.end) == (30.0, 120.0)


def test_drops_with_a_sample_back_at_the_baseline_between_them_stay_apart() -> None:
    t, v = series()
    v[60] = 1000.0
    parts = [one(30.0, 60.0, 0.35), one(61.0, 120.0, 1.0)]
    assert _phases_joined(parts, t, v) == parts
    rise = RunDrop(REF, Drop(60.0, 90.0, 1.0, 10.0, 30.0, 30.0, kind="latency"), [])
    assert _phases_joined([parts[0], rise], t, v) == [parts[0], rise]  # a latency rise is no phase


def test_an_index_build_then_its_metadata_lock_is_one_drop_said_phase_by_phase(tmp_path: Path) -> None:
    """Held-out add-index-long-hot: another client built an index (-33 % for 36 s, its redo x15),
    then held the table's metadata lock (0 commits for 119 s). Found as two drops against one
    disturbance; now one, the build its cause, the lock's stall its second phase."""
    lib = Library(tmp_path / "library.sqlite")
    try:
        run = import_path(lib, ROOT / "bench" / "drop_quality" / "runs" / "add-index-long-hot").id
        (rd,) = run_findings(LibraryRunData(lib), run).drops
    finally:
        lib.close()
    build, lock = rd.phases
    assert build.drop.end == lock.drop.start
    assert (rd.drop.start, rd.drop.end) == (build.drop.start, lock.drop.end)
    assert "redo written" in build.verdict() and "CREATE INDEX" in lock.verdict(), (build.verdict(), lock.verdict())
    assert rd.verdict().startswith("began with another client's bulk writes") and rd.explain == build.explain
    assert rd.classes()[0] == "workload"
