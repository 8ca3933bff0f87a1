"""Top waits in a summary: the Performance Schema and InnoDB mutex waits that rank highest in a
window, each run's top N joined, ranks, shares and B vs A; rates checked against the raw snapshots
read here."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.summary import Window, change, summarize, top_waits
from benchlens.app.model import Run, SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import RECORDED, rid


def perfschema_rates(path: Path) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """ms of wait per second per event between `TS` snapshots of a `mysql -B` capture."""
    snaps: list[tuple[float, dict[str, int]]] = []
    for line in path.read_text().splitlines():
        if line.startswith("TS "):
            snaps.append((float(line.split()[1]), {}))
        elif line.count("\t") == 2 and not line.startswith("EVENT_NAME"):
            name, _count, total = line.split("\t")
            snaps[-1][1][name] = int(total)
    names = set().union(*(s for _, s in snaps))
    t = np.array([b[0] for _, b in itertools.pairwise(snaps)])
    rates = {
        e: np.array([(b[1].get(e, 0) - a[1].get(e, 0)) / 1e9 / (b[0] - a[0]) for a, b in itertools.pairwise(snaps)])
        for e in names
    }
    return t, rates


def test_top_waits_of_a_real_capture_equal_the_raw_snapshots(summary_lib: Library) -> None:
    run = summary_lib.run("recorded_mariadb_oltp")
    t, rates = perfschema_rates(RECORDED / "perfschema.log")
    window = Window(0.0, 12.0)
    data = LibraryRunData(summary_lib)
    wt = top_waits(data, [run.id], {run.id: window.t_range([run], run.id)}, top=3)
    (table,) = wt
    assert (table.format, table.metric, table.unit) == ("perfschema", "SUM_TIMER_WAIT", "ms/s")
    lo, hi = window.t_range([run], run.id)
    sel = (t >= lo) & (t <= hi)
    want = {e: float(v[sel].mean()) for e, v in rates.items() if e != "idle"}
    top3 = sorted((e for e in want if want[e] > 0), key=lambda e: -want[e])[:3]
    assert [r.entity for r in table.rows] == top3
    for r in table.rows:
        assert r.rate[run.id] == pytest.approx(want[r.entity])
        assert r.share[run.id] == pytest.approx(want[r.entity] / sum(want.values()))
    assert "idle" not in {r.entity for r in table.rows}  # a thread waiting for a query is no wait


class ShiftedTwin:
    """A second run made of the first one's data moved earlier by `shift` seconds, its start kept:
    one real capture seen as two runs, a window covering a different stretch of each."""

    def __init__(self, data: LibraryRunData, run_id: int, twin: int, shift: float) -> None:
        self.d, self.run_id, self.twin, self.shift = data, run_id, twin, shift

    def run(self, run_id: int) -> Run:
        r = self.d.run(self.run_id)
        return dataclasses.replace(r, id=self.twin, name="twin") if run_id == self.twin else r

    def run_ids(self) -> list[int]:
        return [self.run_id, self.twin]

    def info(self, run_id: int, ref: SeriesRef):
        return self.d.info(self.run_id, ref)

    def annotations(self, run_id: int) -> list:
        return []

    def available(self, run_id: int) -> list[SeriesRef]:
        return self.d.available(self.run_id)

    def unit(self, run_id: int, ref: SeriesRef) -> str:
        return self.d.unit(self.run_id, ref)

    def data(self, run_id: int, ref: SeriesRef):
        d = self.d.data(self.run_id, ref)
        return (d[0] + self.shift, d[1]) if d is not None and run_id == self.twin else d

    def source_meta(self, run_id: int, fmt: str) -> list:
        return self.d.source_meta(self.run_id, fmt)


def test_top_waits_side_by_side_on_a_real_capture(summary_lib: Library) -> None:
    run = rid(summary_lib, "recorded_mariadb_oltp")
    data = ShiftedTwin(LibraryRunData(summary_lib), run, 999, shift=-10.0)  # B: the same capture 10 s later
    t, rates = perfschema_rates(RECORDED / "perfschema.log")
    s = summarize(data, [run, 999], Window(2.0, 9.0), [SeriesRef("sysbench", "tps")], top=2)
    (w,) = s.waits
    tops = {}
    for r, shift in ((run, 0.0), (999, -10.0)):
        lo, hi = s.window.t_range([data.run(run), data.run(999)], r)
        sel = (t + shift >= lo) & (t + shift <= hi)
        assert sel.sum() >= 3
        mean = {e: float(v[sel].mean()) for e, v in rates.items() if e != "idle"}
        tops[r] = mean
    want = set()
    for r in (run, 999):
        want |= set(sorted((e for e in tops[r] if tops[r][e] > 0), key=lambda e: -tops[r][e])[:2])
    assert {x.entity for x in w.rows} == want
    order = [max(tops[run][e], tops[999][e]) for e in (x.entity for x in w.rows)]
    assert order == sorted(order, reverse=True)
    table = next(t for t in s.tables() if t.key == "waits:perfschema")
    cols = [c.name for c in table.columns]
    assert cols == ["wait", "rank A", "ms/s A", "share A", "rank B", "ms/s B", "share B", "Δ"]
    for row in table.rows:
        a, b = tops[run][row[0]], tops[999][row[0]]
        assert row[2] == pytest.approx(a) and row[5] == pytest.approx(b)
        want_change = change(a, b)
        assert row[7] == (pytest.approx(want_change) if isinstance(want_change, float) else want_change)
    assert any(isinstance(row[7], float) and abs(row[7]) > 1 for row in table.rows)  # two stretches differ


class FakeWaits:
    """Two runs whose Performance Schema waits are given per event as constant rates."""

    def __init__(self, waits: dict[int, dict[str, float]]) -> None:
        self.waits = waits
        self.t = np.arange(100.0, 110.0)

    def run(self, run_id: int) -> Run:
        return Run(run_id, f"run{run_id}", 100.0, 109.0, None, None, None, "", None, "", None, None, 0)

    def run_ids(self) -> list[int]:
        return list(self.waits)

    def info(self, run_id: int, ref: SeriesRef) -> None:
        return None

    def annotations(self, run_id: int) -> list:
        return []

    def available(self, run_id: int) -> list[SeriesRef]:
        return [SeriesRef("perfschema", "SUM_TIMER_WAIT", e) for e in self.waits[run_id]]

    def unit(self, run_id: int, ref: SeriesRef) -> str:
        return "ms/s"

    def data(self, run_id: int, ref: SeriesRef):
        return self.t, np.full(len(self.t), self.waits[run_id][ref.entity])

    def source_meta(self, run_id: int, fmt: str) -> list:
        return []


def test_top_waits_rows_are_the_union_of_each_runs_top_n() -> None:
    data = FakeWaits({1: {"x": 10.0, "y": 5.0, "w": 1.0, "idle": 99.0}, 2: {"z": 20.0, "y": 6.0, "w": 2.0, "x": 0.5}})
    s = summarize(data, [1, 2], Window(), [], top=2)
    (w,) = s.waits
    # A's top 2 is x, y; B's is z, y; w is in neither; a wait A never reported (z) is 0 there
    assert [r.entity for r in w.rows] == ["z", "x", "y"]
    z, x, y = w.rows
    assert z.rate == {1: 0.0, 2: 20.0} and z.rank == {2: 1} and x.rank == {1: 1, 2: 4}
    assert y.share[1] == pytest.approx(5.0 / 16.0) and y.share[2] == pytest.approx(6.0 / 28.5)
    table = next(t for t in s.tables() if t.key == "waits:perfschema")
    assert [r[-1] for r in table.rows] == ["A=0", pytest.approx(-95.0), pytest.approx(20.0)]
    assert "top 2" in table.note


def test_innodb_mutex_waits_rank_the_mutexes(summary_lib: Library) -> None:
    run = rid(summary_lib, "mutex56")
    s = summarize(LibraryRunData(summary_lib), [run], Window(), [], top=3)
    (w,) = s.waits
    assert (w.format, w.metric, w.unit) == ("innodb_mutex", "os_waits", "1/s")
    means = {}
    for info in summary_lib.series(run):
        if info.metric == "os_waits":
            v = summary_lib.load(info)[1]
            means[info.entity] = float(np.nanmean(v))
    best = sorted(means, key=lambda e: -means[e])[:3]
    assert [r.entity for r in w.rows] == best
    assert [r.rank[run] for r in w.rows] == [1, 2, 3]
