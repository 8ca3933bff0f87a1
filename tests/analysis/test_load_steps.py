"""Load steps in a summary: the TPS and latency of each step of a step-load run equal the raw log
read here (steady part as documented), the log's runs are the steps (not a thread-count blip), a
dbstress log's user levels are steps, and a window keeps the steps it covers."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.steps import STEPS, find_steps
from benchlens.app.analysis.summary import Window, load_steps, summarize
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES, STEP_LOGS, rid

SB = FIXTURES / "sysbench"


def naive_steps(path: Path) -> list[dict[str, float]]:
    """Each run of a concatenated sysbench log, read from its own header and report lines, with the
    steady part taken as documented: the first StepParams.warmup of its reports and reports counting fewer
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
        steady = [r for r in rows[int(STEPS.warmup * len(rows)) :] if r[0] == threads]
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
def test_tps_per_step_equals_the_raw_log(summary_lib: Library, log: Path) -> None:
    want = naive_steps(log)
    assert len(want) >= 2
    st = load_steps(LibraryRunData(summary_lib), rid(summary_lib, log.stem))
    assert st is not None and st.format == "sysbench" and st.latency == "p95 ms"
    assert [s.threads for s in st.steps] == [w["threads"] for w in want]
    for got, w in zip(st.steps, want, strict=True):
        assert got.n == w["n"]
        assert got.tps_median == pytest.approx(w["median"]) and got.tps_mean == pytest.approx(w["mean"])
        assert got.lat_median == pytest.approx(w["lat"])


def test_steps_follow_the_log_runs_not_a_thread_count_blip(summary_lib: Library) -> None:
    """sysbench's last report of a run can count fewer threads (they are finishing): the real
    2-thread run of this log ends with `thds: 1`. The log's runs are the steps; the blip is
    not a step and is not in the steady part."""
    log = SB / "sysbench_1.0.20_C_cpu-step-load.txt"
    run = rid(summary_lib, log.stem)
    t, thds = summary_lib.load(summary_lib.find_series(run, "sysbench", "thds", ""))
    assert list(thds) == [1, 1, 2, 2, 1]
    data = LibraryRunData(summary_lib)
    meta_runs = data.source_meta(run, "sysbench")[0].log_runs
    assert len(meta_runs) == 2
    st = load_steps(data, run)
    assert st is not None and [(s.threads, s.n) for s in st.steps] == [(1, 2), (2, 2)]
    assert st.steps[1].tps_median == pytest.approx((4070.72 + 4144.71) / 2)
    # without the importer's record, levels of the thread count: stretches this short cannot be
    # told from a blip, so they join one step; longer ones are steps and a blip joins the one before
    assert [(x.first, x.stop) for x in find_steps(t, thds)] == [(0, 5)]
    long = np.repeat([1.0, 2.0, 4.0], 6)
    long[11] = 1.0  # the last report of the 2-thread step
    assert [(x.first, x.stop) for x in find_steps(np.arange(18.0), long)] == [(0, 6), (6, 12), (12, 18)]


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


def test_a_window_keeps_the_steps_it_covers(summary_lib: Library) -> None:
    log = max(STEP_LOGS, key=lambda p: p.stat().st_size)
    run = summary_lib.run(log.stem)
    data = LibraryRunData(summary_lib)
    whole = load_steps(data, run.id)
    assert whole is not None and len(whole.steps) >= 2
    x1 = whole.steps[1].t1 - run.start
    s = summarize(data, [run.id], Window(None, x1), [SeriesRef("sysbench", "tps")])
    assert [(x.threads, x.n) for x in s.steps[run.id].steps] == [(x.threads, x.n) for x in whole.steps[:2]]


def test_a_run_at_one_thread_count_is_no_step_load(summary_lib: Library) -> None:
    assert load_steps(LibraryRunData(summary_lib), rid(summary_lib, "baseline")) is None


def test_the_latency_of_a_higher_step_is_no_rise(summary_lib: Library) -> None:
    """Each thread count's latency is that step's own level: going from 2 to 4 and 8 threads on 2
    CPUs multiplies it (sysbench cpu, prime 10000: 0.5 -> 4.5 -> 12.5 ms), which is the saturation a
    step load measures, not a latency rise (it was one, 'latency x9.4 · 19 s', across the 4 and 8
    thread steps). A rise within a step is still found: in the prime 20000 log the 4-thread step
    went 5.37 -> 13.2-13.7 ms for four reports while its throughput halved (a drop, the rise part
    of it); on its own, the rise is found within that step."""
    from benchlens.app.analysis.rises import rises
    from benchlens.app.analysis.run_drops import run_findings

    data = LibraryRunData(summary_lib)
    for name in ("prime10000", "prime20000"):
        assert run_findings(data, rid(summary_lib, f"sysbench_1.0.20_C_cpu-step-load-{name}")).rises == []
    run = rid(summary_lib, "sysbench_1.0.20_C_cpu-step-load-prime20000")
    t, lat = data.data(run, SeriesRef("sysbench", "lat_ms", "95"))  # type: ignore[misc]
    thds = data.data(run, SeriesRef("sysbench", "thds"))
    high = t[(lat > 13) & (thds[1] == 4)]  # type: ignore[index]
    (rise,) = rises(t, lat, segments=[s.core for s in find_steps(*thds) if s.core])  # type: ignore[misc]
    assert len(high) == 4 and rise.start < high[0] and rise.end == high[-1]
    assert rise.baseline == pytest.approx(5.37)
    (drop,) = run_findings(data, run).drops
    assert drop.drop.start < high[0] and drop.drop.end >= high[-2]
