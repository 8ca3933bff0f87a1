"""Summaries: statistics over a window, B vs A, top waits, load steps, their renderings, the
`benchlens summary` command and the app's Summary panel. Values are checked against numpy on the
raw captures read naively here (tests/naive.py and the small readers below)."""

from __future__ import annotations

import csv
import dataclasses
import io
import itertools
import json
import math
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.steps import STEP_WARMUP, step_ranges
from benchlens.app.analysis.summary import (
    Stats,
    Window,
    change,
    load_steps,
    render,
    series_refs,
    summarize,
    top_waits,
)
from benchlens.app.analysis.tables import Column, Table, fmt, to_csv, to_markdown, to_text
from benchlens.app.cli import main
from benchlens.app.ingest import import_path
from benchlens.app.model import Run, SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests import naive
from tests.conftest import FIXTURES

DEMO = Path(__file__).parents[1] / "resources" / "demo"
RECORDED = FIXTURES / "runs" / "recorded_mariadb_oltp"
SB = FIXTURES / "sysbench"
STEP_LOGS = sorted(SB.glob("*step-load*.txt"))  # real sysbench step loads (1, 2, 4 ... threads)
MUTEX_56 = FIXTURES / "innodb_mutex" / "innodb_mutex_mysql-5.6_vertical_handwritten.txt"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One library for the module: the demo runs, the recorded MariaDB run, the step-load logs and
    an InnoDB mutex capture with a restart (a gap)."""
    root = tmp_path_factory.mktemp("summary")
    path = root / "lib.sqlite"
    with Library(path) as lib:
        for name in ("baseline", "disk-stall"):
            import_path(lib, DEMO / name)
        import_path(lib, RECORDED)
        for log in STEP_LOGS:
            folder = root / log.stem
            folder.mkdir()
            shutil.copy(log, folder / "sysbench.log")
            import_path(lib, folder)
        folder = root / "mutex56"
        folder.mkdir()
        shutil.copy(MUTEX_56, folder / "innodb_mutex.log")
        import_path(lib, folder)
    return path


@pytest.fixture
def lib(db: Path):
    with Library(db) as library:
        yield library


def rid(lib: Library, name: str) -> int:
    return int(lib.run(name).id)


def numpy_stats(v: list[float] | np.ndarray) -> dict[str, float]:
    """The statistics as plain numpy gives them, gaps (NaN) left out."""
    a = np.asarray(v, dtype=float)
    return {
        "n": int(np.isfinite(a).sum()),
        "mean": float(np.nanmean(a)),
        "median": float(np.nanmedian(a)),
        "p95": float(np.nanpercentile(a, 95)),
        "min": float(np.nanmin(a)),
        "max": float(np.nanmax(a)),
    }


def assert_stats(got: Stats, want: dict[str, float]) -> None:
    assert got.n == want["n"]
    for k in ("mean", "median", "p95", "min", "max"):
        assert getattr(got, k) == pytest.approx(want[k], rel=1e-12, abs=1e-12), k


def sysbench_tps(path: Path) -> list[float]:
    return [float(x) for x in re.findall(r"\btps: ([\d.]+)", path.read_text())]


def stats_of(summary, run_id: int, ref: SeriesRef) -> Stats:
    return next(s for s in summary.stats if s.ref == ref).runs[run_id]


# ---- statistics on real captures ----------------------------------------------------------------
def test_whole_run_statistics_equal_numpy_on_the_raw_captures(lib: Library) -> None:
    data = LibraryRunData(lib)
    for name in ("baseline", "disk-stall"):
        run = rid(lib, name)
        raw = naive.vmstat_t(DEMO / name / "vmstat.log")
        raw.update(naive.iostat_xt(DEMO / name / "iostat.log"))
        refs = [SeriesRef("vmstat", "us"), SeriesRef("vmstat", "wa"), SeriesRef("iostat", "%util", "vda")]
        refs += [SeriesRef("iostat", "w_await", "vda"), SeriesRef("sysbench", "tps")]
        s = summarize(data, [run], Window(), refs)
        for ref in refs[:-1]:
            assert_stats(stats_of(s, run, ref), numpy_stats([v for _, v in raw[(ref.format, ref.metric, ref.entity)]]))
        assert_stats(
            stats_of(s, run, SeriesRef("sysbench", "tps")), numpy_stats(sysbench_tps(DEMO / name / "sysbench.log"))
        )


def test_gaps_are_not_counted(lib: Library) -> None:
    """A server restart between two InnoDB mutex snapshots leaves a gap (NaN) in the rates."""
    run = rid(lib, "mutex56")
    ref = SeriesRef("innodb_mutex", "os_waits", "&log_sys->mutex")
    _t, v = lib.load(lib.find_series(run, ref.format, ref.metric, ref.entity))
    assert np.isnan(v).sum() == 1 and len(v) == 4
    got = stats_of(summarize(LibraryRunData(lib), [run], Window(), [ref]), run, ref)
    assert got.n == 3
    assert_stats(got, numpy_stats(v))
    assert math.isfinite(got.mean) and got.mean == pytest.approx(float(np.mean(v[np.isfinite(v)])))
    empty = Stats.of(np.array([np.nan, np.nan]))
    assert empty.n == 0 and math.isnan(empty.mean) and math.isnan(empty.p95)


@pytest.mark.parametrize("align", ["run", "bench", "absolute"])
def test_a_zoomed_window_is_the_numpy_statistic_of_the_slice(lib: Library, align: str) -> None:
    name = "disk-stall"
    run = lib.run(name)
    raw = naive.iostat_xt(DEMO / name / "iostat.log")[("iostat", "%util", "vda")]
    t = np.array([p[0] for p in raw])
    v = np.array([p[1] for p in raw])
    base = {"run": run.start, "bench": run.bench_start, "absolute": 0.0}[align]
    x = t - base  # the samples on the comparison's axis in this alignment
    k0, k1 = int(np.searchsorted(x, x[0] + 38)), int(np.searchsorted(x, x[0] + 60))
    x0, x1 = (x[k0 - 1] + x[k0]) / 2, (x[k1 - 1] + x[k1]) / 2  # between samples: no rounding at the edges
    ref = SeriesRef("iostat", "%util", "vda")
    data = LibraryRunData(lib)
    zoomed = stats_of(summarize(data, [run.id], Window(x0, x1, align), [ref]), run.id, ref)
    whole = stats_of(summarize(data, [run.id], Window(align=align), [ref]), run.id, ref)
    sel = (x >= x0) & (x <= x1)
    assert sel.sum() == k1 - k0 == 22
    assert_stats(zoomed, numpy_stats(v[sel]))
    assert_stats(whole, numpy_stats(v))
    assert zoomed.n < whole.n and zoomed.mean != pytest.approx(whole.mean)


def test_offsets_and_side_by_side_move_each_runs_window(lib: Library) -> None:
    a, b = rid(lib, "baseline"), rid(lib, "disk-stall")
    data = LibraryRunData(lib)
    ref = SeriesRef("sysbench", "tps")
    runs = [lib.run(a), lib.run(b)]
    plain = Window(40.0, 70.0)
    shifted = Window(40.0, 70.0, offsets={b: 10.0})
    assert shifted.t_range(runs, b)[0] == pytest.approx(plain.t_range(runs, b)[0] - 10.0)
    assert shifted.t_range(runs, a) == plain.t_range(runs, a)
    t, v = lib.load(lib.find_series(b, "sysbench", "tps", ""))
    lo, hi = shifted.t_range(runs, b)
    got = stats_of(summarize(data, [a, b], shifted, [ref]), b, ref)
    assert_stats(got, numpy_stats(v[(t >= lo) & (t <= hi)]))
    # side by side: B follows A on the axis, so a window over A's stretch holds nothing of B
    side = Window(0.0, 60.0, side_by_side=True)
    s = summarize(data, [a, b], side, [ref])
    assert stats_of(s, a, ref).n > 50 and stats_of(s, b, ref).n == 0
    assert to_text(s.tables()).count("–") >= 5  # B's empty statistics read as dashes


# ---- B vs A ----------------------------------------------------------------------------------
def test_b_vs_a_differences_in_percent(lib: Library) -> None:
    a, b = rid(lib, "baseline"), rid(lib, "disk-stall")
    refs = [SeriesRef("sysbench", "tps"), SeriesRef("iostat", "%util", "vda"), SeriesRef("iostat", "r/s", "vda")]
    s = summarize(LibraryRunData(lib), [a, b], Window(35.0, 65.0), refs)
    diff = next(t for t in s.tables() if t.key == "diff")
    cols = [c.name for c in diff.columns]
    assert cols[:5] == ["series", "unit", "mean A", "mean B", "Δ mean"]
    tps = next(r for r in diff.rows if r[0] == "sysbench:tps")
    raw = {}
    for run, name in ((a, "baseline"), (b, "disk-stall")):
        t, v = lib.load(lib.find_series(run, "sysbench", "tps", ""))
        lo, hi = s.window.t_range([lib.run(a), lib.run(b)], run)
        raw[name] = v[(t >= lo) & (t <= hi)]
    for stat, fn in (("mean", np.mean), ("median", np.median), ("p95", lambda x: np.percentile(x, 95))):
        va, vb = float(fn(raw["baseline"])), float(fn(raw["disk-stall"]))
        k = cols.index(f"Δ {stat}")
        assert tps[k - 2] == pytest.approx(va) and tps[k - 1] == pytest.approx(vb)
        assert tps[k] == pytest.approx((vb - va) / va * 100)
    assert tps[cols.index("Δ mean")] < -15  # the disk stall cost throughput in this window
    util = next(r for r in diff.rows if r[0] == "iostat:%util:vda")
    assert util[cols.index("Δ p95")] > 100
    reads = next(r for r in diff.rows if r[0] == "iostat:r/s:vda")  # no reads in either run: 0 -> 0
    assert reads[cols.index("mean A")] == 0 and reads[cols.index("Δ mean")] == 0.0


def test_change_when_a_is_zero_negative_or_missing() -> None:
    assert change(200.0, 150.0) == pytest.approx(-25.0)
    assert change(-2.0, -1.0) == pytest.approx(50.0)  # relative to |A|: towards zero is up
    assert change(0.0, 0.0) == 0.0
    assert change(0.0, 3.0) == "A=0"
    assert change(math.nan, 3.0) is None and change(3.0, math.nan) is None
    assert fmt(change(0.0, 3.0), "pct") == "A=0" and fmt(None, "pct") == "–" and fmt(-12.345, "pct") == "-12.3 %"


def test_a_series_only_one_run_has_gets_no_difference(lib: Library) -> None:
    a, b = rid(lib, "recorded_mariadb_oltp"), rid(lib, "baseline")
    ref = SeriesRef("innodb_status", "checkpoint_age")
    s = summarize(LibraryRunData(lib), [a, b], Window(), [ref, SeriesRef("sysbench", "tps")])
    diff = next(t for t in s.tables() if t.key == "diff")
    row = next(r for r in diff.rows if r[0] == ref.spec())
    assert row[2] > 0 and math.isnan(row[3]) and row[4] is None  # mean A, mean B (none), no change
    text = to_text([diff])
    line = next(ln for ln in text.splitlines() if ln.startswith(ref.spec()))
    assert "–" in line


# ---- top waits -------------------------------------------------------------------------------
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


def test_top_waits_of_a_real_capture_equal_the_raw_snapshots(lib: Library) -> None:
    run = lib.run("recorded_mariadb_oltp")
    t, rates = perfschema_rates(RECORDED / "perfschema.log")
    window = Window(0.0, 12.0)
    data = LibraryRunData(lib)
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


def test_top_waits_side_by_side_on_a_real_capture(lib: Library) -> None:
    run = rid(lib, "recorded_mariadb_oltp")
    data = ShiftedTwin(LibraryRunData(lib), run, 999, shift=-10.0)  # B: the same capture 10 s later
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


def test_innodb_mutex_waits_rank_the_mutexes(lib: Library) -> None:
    run = rid(lib, "mutex56")
    s = summarize(LibraryRunData(lib), [run], Window(), [], top=3)
    (w,) = s.waits
    assert (w.format, w.metric, w.unit) == ("innodb_mutex", "os_waits", "1/s")
    means = {}
    for info in lib.series(run):
        if info.metric == "os_waits":
            v = lib.load(info)[1]
            means[info.entity] = float(np.nanmean(v))
    best = sorted(means, key=lambda e: -means[e])[:3]
    assert [r.entity for r in w.rows] == best
    assert [r.rank[run] for r in w.rows] == [1, 2, 3]


# ---- load steps ------------------------------------------------------------------------------
def naive_steps(path: Path) -> list[dict[str, float]]:
    """Each run of a concatenated sysbench log, read from its own header and report lines, with the
    steady part taken as documented: the first STEP_WARMUP of its reports and reports counting fewer
    threads than the header's left out."""
    runs: list[tuple[int, list[tuple[int, float, float]]]] = []
    for line in path.read_text().splitlines():
        if line.startswith("Number of threads:"):
            runs.append((int(line.split(":")[1]), []))
        elif line.startswith("[") and ("thds:" in line):
            w = line.split()
            thds = int(w[w.index("thds:") + 1])
            tps = float(w[w.index("eps:" if "eps:" in w else "tps:") + 1])
            lat = float(w[[k for k, x in enumerate(w) if x.startswith("(ms,")][0] + 1])
            runs[-1][1].append((thds, tps, lat))
    out = []
    for threads, rows in runs:
        steady = [r for r in rows[int(STEP_WARMUP * len(rows)) :] if r[0] == threads]
        out.append(
            {
                "threads": threads,
                "n": len(steady),
                "median": float(np.median([r[1] for r in steady])),
                "mean": float(np.mean([r[1] for r in steady])),
                "lat": float(np.median([r[2] for r in steady])),
            }
        )
    return out


@pytest.mark.parametrize("log", STEP_LOGS, ids=[p.name for p in STEP_LOGS])
def test_tps_per_step_equals_the_raw_log(lib: Library, log: Path) -> None:
    want = naive_steps(log)
    assert len(want) >= 2
    st = load_steps(LibraryRunData(lib), rid(lib, log.stem))
    assert st is not None and st.format == "sysbench" and st.latency == "p95 ms"
    assert [s.threads for s in st.steps] == [w["threads"] for w in want]
    for got, w in zip(st.steps, want, strict=True):
        assert got.n == w["n"]
        assert got.tps_median == pytest.approx(w["median"]) and got.tps_mean == pytest.approx(w["mean"])
        assert got.lat_median == pytest.approx(w["lat"])


def test_steps_follow_the_log_runs_not_a_thread_count_blip(lib: Library) -> None:
    """sysbench's last report of a run can count fewer threads (they are finishing): the real
    2-thread run of this log ends with `thds: 1`. The log's runs are the steps; the blip is
    not a step and is not in the steady part."""
    log = SB / "sysbench_1.0.20_C_cpu-step-load.txt"
    run = rid(lib, log.stem)
    t, thds = lib.load(lib.find_series(run, "sysbench", "thds", ""))
    assert list(thds) == [1, 1, 2, 2, 1]
    data = LibraryRunData(lib)
    meta_runs = data.source_meta(run, "sysbench")[0].log_runs
    assert len(meta_runs) == 2
    st = load_steps(data, run)
    assert st is not None and [(s.threads, s.n) for s in st.steps] == [(1, 2), (2, 2)]
    assert st.steps[1].tps_median == pytest.approx((4070.72 + 4144.71) / 2)
    # without the importer's record, levels of the thread count: stretches this short cannot be
    # told from a blip, so they join one step; longer ones are steps and a blip joins the one before
    assert step_ranges(t, thds, None) == [(0, 5)]
    long = np.repeat([1.0, 2.0, 4.0], 6)
    long[11] = 1.0  # the last report of the 2-thread step
    assert step_ranges(np.arange(18.0), long, None) == [(0, 6), (6, 12), (12, 18)]


def test_steps_from_thread_levels_of_a_dbstress_log(tmp_path: Path) -> None:
    log = FIXTURES / "dbstress" / "dbstress_tsv-step-load_handwritten.txt"
    folder = tmp_path / "dbs"
    folder.mkdir()
    shutil.copy(log, folder / "injector.log")
    with Library(tmp_path / "d.sqlite") as lib:
        run = import_path(lib, folder).id
        st = load_steps(LibraryRunData(lib), run)
        _t, users = lib.load(lib.find_series(run, "dbstress", "thds", ""))
    assert st is not None and st.latency == "SEL1 ms"
    levels = [users[0]] + [u for prev, u in itertools.pairwise(users) if u != prev]
    assert [s.threads for s in st.steps] == levels


def test_a_window_keeps_the_steps_it_covers(lib: Library) -> None:
    log = max(STEP_LOGS, key=lambda p: p.stat().st_size)
    run = lib.run(log.stem)
    data = LibraryRunData(lib)
    whole = load_steps(data, run.id)
    assert whole is not None and len(whole.steps) >= 2
    x1 = whole.steps[1].t1 - run.start
    s = summarize(data, [run.id], Window(None, x1), [SeriesRef("sysbench", "tps")])
    assert [(x.threads, x.n) for x in s.steps[run.id].steps] == [(x.threads, x.n) for x in whole.steps[:2]]


def test_a_run_at_one_thread_count_is_no_step_load(lib: Library) -> None:
    assert load_steps(LibraryRunData(lib), rid(lib, "baseline")) is None


# ---- renderings ------------------------------------------------------------------------------
@pytest.fixture
def two_step_loads(lib: Library):
    a, b = (rid(lib, p.stem) for p in STEP_LOGS[:2])
    data = LibraryRunData(lib)
    return summarize(data, [a, b], Window(), series_refs(data, [a, b]))


def split_md(line: str) -> list[str]:
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [c.strip().replace("\\|", "|").replace("\\\\", "\\") for c in cells]


def test_markdown_parses_back_to_the_tables(two_step_loads) -> None:
    tables = two_step_loads.tables()
    assert {t.key for t in tables} >= {"stats", "diff", "steps", "steps-diff"}
    text = to_markdown(tables)
    blocks = [b for b in text.split("\n\n") if b.startswith("|")]
    assert len(blocks) == len(tables)
    for t, block in zip(tables, blocks, strict=True):
        lines = block.splitlines()
        assert split_md(lines[0]) == [c.name for c in t.columns]
        assert all(set(c) <= set(":-") for c in split_md(lines[1]))
        rows = [split_md(x) for x in lines[2:]]
        assert rows == [[fmt(v, c.kind) for v, c in zip(r, t.columns, strict=True)] for r in t.rows]
        assert f"**{t.title}**" in text


def test_markdown_escapes_pipes_in_names() -> None:
    t = Table("x", "T", [Column("wait", "text"), Column("v")], [["a|b", 1.5]])
    line = to_markdown([t]).splitlines()[4]
    assert split_md(line) == ["a|b", "1.50"]


def test_csv_parses_back_to_the_values(two_step_loads) -> None:
    tables = two_step_loads.tables()
    blocks = to_csv(tables).split("\n\n")
    assert len(blocks) == len(tables)
    for t, block in zip(tables, blocks, strict=True):
        rows = list(csv.reader(io.StringIO(block)))
        assert rows[0] == [t.title] and rows[1] == [c.name for c in t.columns]
        for got, want in zip(rows[2:], t.rows, strict=True):
            for cell, value in zip(got, want, strict=True):
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    assert cell == ""
                elif isinstance(value, (int, float)):
                    assert float(cell) == pytest.approx(value, rel=1e-11)
                else:
                    assert cell == value
    one = list(csv.reader(io.StringIO(to_csv(tables[:1]))))  # one table: header first, no title
    assert one[0] == [c.name for c in tables[0].columns] and len(one) == len(tables[0].rows) + 1


def test_text_columns_line_up(two_step_loads) -> None:
    tables = two_step_loads.tables()
    text = to_text(tables)
    for t, block in zip(tables, text.strip().split("\n\n"), strict=True):
        lines = block.splitlines()
        assert lines[0] == t.title
        rule = lines[2]
        starts = [m.start() for m in re.finditer(r"-+", rule)]
        assert len(starts) == len(t.columns)
        for row, values in zip(lines[3 : 3 + len(t.rows)], t.rows, strict=True):
            for start, end, v, c in zip(starts, [*starts[1:], None], values, t.columns, strict=True):
                assert row[start:end].strip() == fmt(v, c.kind)


# ---- the command line ------------------------------------------------------------------------
def test_cli_summary_formats(db: Path, capsys: pytest.CaptureFixture[str], lib: Library) -> None:
    args = ["summary", "baseline", "disk-stall", "--from", "35", "--to", "65", "--metric", "tps", "--db", str(db)]
    capsys.readouterr()
    assert main([*args, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["window"] == {"from": 35.0, "to": 65.0, "align": "run"}
    tables = {t["key"]: t for t in out["tables"]}
    a, b = rid(lib, "baseline"), rid(lib, "disk-stall")
    want = summarize(LibraryRunData(lib), [a, b], Window(35.0, 65.0), [SeriesRef("sysbench", "tps")])
    (row,) = tables["diff"]["rows"]
    (wrow,) = next(t for t in want.tables() if t.key == "diff").rows
    assert row["series"] == "sysbench:tps" and row["Δ mean"] == pytest.approx(wrow[4])
    assert [r["run"] for r in tables["stats"]["rows"]] == ["baseline", "disk-stall"]
    for fmt_name, renderer in (("text", to_text), ("markdown", to_markdown), ("csv", to_csv)):
        assert main([*args, "--format", fmt_name]) == 0
        assert capsys.readouterr().out == renderer(want.tables())
    assert main(["summary", "baseline", "--db", str(db)]) == 0  # default: the default layout's series
    text = capsys.readouterr().out
    assert "Statistics" in text and "iostat:%util:vda" in text and "B vs A" not in text


def test_cli_summary_rejects_bad_input(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["summary", "baseline", "disk-stall", "recorded_mariadb_oltp"],
        ["summary", "baseline", "--from", "50", "--to", "20"],
        ["summary", "baseline", "--metric", "nosuch:metric"],
        ["summary", "no-such-run"],
        ["summary", "baseline", "--top", "0"],
    ):
        capsys.readouterr()
        assert main([*args, "--db", str(db)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("benchlens: ") and "Traceback" not in err[0]


def test_cli_summary_needs_no_qt(db: Path) -> None:
    code = (
        "import sys; from benchlens.app.cli import main; "
        f"rc = main(['summary', 'baseline', '--format', 'csv', '--db', {str(db)!r}]); "
        "assert rc == 0; assert not any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules), 'Qt loaded'"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=Path(__file__).parents[1], timeout=120
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "series,unit,run,n,mean,median,p95,min,max"  # one table: no title row


def test_render_json_has_no_nan(lib: Library) -> None:
    a, b = rid(lib, "recorded_mariadb_oltp"), rid(lib, "baseline")
    s = summarize(LibraryRunData(lib), [a, b], Window(), [SeriesRef("innodb_status", "checkpoint_age")])
    text = render(s, "json")
    assert "NaN" not in text
    row = json.loads(text)["tables"][1]["rows"][0]
    assert row["mean B"] is None and row["Δ mean"] is None


# ---- the app's Summary panel ---------------------------------------------------------------
@pytest.fixture
def window(qtbot, db: Path, tmp_path: Path):
    from PySide6.QtCore import QSettings

    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    session = Session(db)
    w = MainWindow(session, QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    yield w
    w.close()
    session.close()


def cell(table, row: int, col: str) -> str:
    names = [table.horizontalHeaderItem(j).text() for j in range(table.columnCount())]
    return table.item(row, names.index(col)).text()


def test_panel_follows_a_zoom(window, qtbot) -> None:
    s = window.session
    a, b = rid(s.lib, "baseline"), rid(s.lib, "disk-stall")
    s.add_runs([a, b])
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    whole = stats_of(view.summary, b, SeriesRef("sysbench", "tps"))
    assert not view.tabs.isTabVisible(view.tab_index["steps"])
    assert view.tabs.currentIndex() == view.tab_index["diff"]
    calls = []
    original = view.refresh
    view.refresh = lambda: (calls.append(1), original())  # type: ignore[method-assign]
    view.timer.timeout.disconnect()
    view.timer.timeout.connect(view.refresh)
    for k in range(6):  # a wheel zoom: many range changes, one summary once it settles
        window.chart.plots[0].setXRange(35.0 + k, 65.0, padding=0)
    window.chart.plots[0].setXRange(40.0, 65.0, padding=0)
    qtbot.waitUntil(lambda: view.summary.window.x0 == 40.0, timeout=3000)
    qtbot.wait(400)
    assert len(calls) == 1
    zoomed = stats_of(view.summary, b, SeriesRef("sysbench", "tps"))
    t, v = s.data(b, SeriesRef("sysbench", "tps"))
    lo, hi = view.summary.window.t_range([s.run(a), s.run(b)], b)
    assert_stats(zoomed, numpy_stats(v[(t >= lo) & (t <= hi)]))
    assert zoomed.n < whole.n
    row = next(i for i in range(view.diff.rowCount()) if view.diff.item(i, 0).text() == "sysbench:tps")
    diff = next(t for t in view.summary.tables() if t.key == "diff")
    want = next(r for r in diff.rows if r[0] == "sysbench:tps")
    assert cell(view.diff, row, "mean B") == fmt(zoomed.mean, "num")
    assert cell(view.diff, row, "Δ mean") == fmt(want[4], "pct")
    assert "40.0 s to 65.0 s" in view.header.text()


def test_copy_buttons_put_the_tables_on_the_clipboard(window, qtbot) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication

    s = window.session
    s.add_runs([rid(s.lib, "baseline"), rid(s.lib, "disk-stall")])
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.runs) == 2, timeout=3000)
    tables = view.summary.tables()
    clipboard = QGuiApplication.clipboard()
    for name, renderer in (("text", to_text), ("Markdown", to_markdown), ("CSV", to_csv)):
        clipboard.setText("")
        qtbot.mouseClick(view.copy_buttons[name], Qt.MouseButton.LeftButton)
        assert clipboard.text() == renderer(tables)
    view.copy("CSV", [view.tables[view.diff]])  # a table's context menu: that table only
    assert clipboard.text() == to_csv([view.tables[view.diff]])
    assert clipboard.text().splitlines()[0].startswith("series,unit,mean A,mean B")


def test_panel_shows_steps_and_the_tps_vs_concurrency_chart(window, qtbot) -> None:
    import pyqtgraph as pg

    s = window.session
    ids = [rid(s.lib, p.stem) for p in STEP_LOGS[:2]]
    s.add_runs(ids)
    view = window.summary
    qtbot.waitUntil(lambda: view.summary is not None and len(view.summary.steps) == 2, timeout=3000)
    assert view.tabs.isTabVisible(view.tab_index["steps"])
    curves = [i for i in view.plot.getPlotItem().items if isinstance(i, pg.PlotDataItem)]
    assert len(curves) == 2
    for curve, r in zip(curves, ids, strict=True):
        steps = sorted(view.summary.steps[r].steps, key=lambda x: x.threads)
        x, y = curve.getData()
        assert list(x) == pytest.approx([math.log2(p.threads) for p in steps])
        assert list(y) == pytest.approx([p.tps_median for p in steps])
        assert curve.opts["symbol"] == "o"
    ticks = view.plot.getAxis("bottom")._tickLevels[0]
    assert [label for _, label in ticks] == [
        f"{t:g}" for t in sorted({p.threads for r in ids for p in view.summary.steps[r].steps})
    ]
    assert view.steps.rowCount() == sum(len(view.summary.steps[r].steps) for r in ids)


def test_panel_is_empty_without_runs(window) -> None:
    view = window.summary
    assert view.summary is None and view.stats.rowCount() == 0
    assert view.copy("text") == ""
