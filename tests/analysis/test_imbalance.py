"""What the aggregate hides (issue #25): one saturated core beside the machine's average.

Recorded: tests/fixtures/runs/one_hot_core (tests/capture/one_hot_core.sh), a single-threaded hog
pinned to CPU 1 of this 2-CPU VM for 25 s under mpstat -P ALL and sar -P ALL."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis import imbalance
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import Explanation
from benchlens.app.analysis.layout import layout_for_runs
from benchlens.app.analysis.verdict import classes, verdict
from benchlens.app.figure import default_layout
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def hog(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LibraryRunData, int]]:
    lib = Library(tmp_path_factory.mktemp("hog") / "lib.sqlite")
    run = import_path(lib, FIXTURES / "runs" / "one_hot_core").id
    yield LibraryRunData(lib), run
    lib.close()


def test_the_pinned_hog_is_one_saturated_core(hog: tuple[LibraryRunData, int]) -> None:
    data, run = hog
    for fmt in ("mpstat", "sar"):  # mpstat -P ALL and sar -P ALL of the same seconds agree
        hot = imbalance.hot_cpu(fmt, data.available(run), partial(data.data, run))
        assert hot is not None and hot.cpu == "1" and hot.cpus == 2
        assert hot.busy >= 99 and hot.average <= 55 and hot.share == "user"
        assert imbalance.describe(hot).endswith("while the 2 CPUs average 51 %: a single-core bottleneck")


def test_a_cpus_busy_and_interrupt_shares_are_made_from_its_own(hog: tuple[LibraryRunData, int]) -> None:
    data, run = hog
    idle = data.data(run, SeriesRef("mpstat", "%idle", "1"))
    busy = data.data(run, SeriesRef("mpstat", "%busy", "1"))
    assert idle is not None and busy is not None
    assert np.array_equal(busy[0], idle[0]) and np.allclose(busy[1], 100 - idle[1])
    assert busy[1].max() == 100.0 and data.unit(run, SeriesRef("mpstat", "%busy", "1")) == "%"
    irq, soft = (data.data(run, SeriesRef("mpstat", m, "0")) for m in ("%irq", "%soft"))
    intr = data.data(run, SeriesRef("mpstat", "%intr", "0"))
    assert irq is not None and soft is not None and intr is not None
    assert np.allclose(intr[1], irq[1] + soft[1]) and intr[1].max() > 10  # the UDP flood's softirq
    assert data.data(run, SeriesRef("mpstat", "%busy", "7")) is None  # no such CPU
    assert data.data(run, SeriesRef("iostat", "%busy", "vda")) is None  # not a per-CPU format


def test_the_default_cpu_panel_shows_the_hot_core_beside_all(hog: tuple[LibraryRunData, int]) -> None:
    data, run = hog
    cpu = next(p for p in default_layout(data, [run]) if p.title.startswith("CPU"))
    assert cpu.title == "CPU (%): CPU 1 saturated"
    assert {SeriesRef("mpstat", "%busy", "1"), SeriesRef("mpstat", "%busy", "all")} <= set(cpu.refs)
    assert SeriesRef("mpstat", "%intr", "1") in cpu.refs


def test_cpus_busy_together_are_not_a_hot_core() -> None:
    t = np.arange(30.0)
    series = {SeriesRef("mpstat", "%idle", c): (t, np.full(30, 5.0)) for c in ("all", "0", "1", "2", "3")}

    def data(ref: SeriesRef) -> tuple[np.ndarray, np.ndarray] | None:
        return series.get(ref) or imbalance.make(ref, series.get)

    assert imbalance.hot_cpu("mpstat", series, data) is None  # 95 % everywhere: the machine is busy
    series[SeriesRef("mpstat", "%idle", "all")] = (t, np.full(30, 70.0))
    series.update({SeriesRef("mpstat", "%idle", c): (t, np.full(30, 95.0)) for c in ("0", "1", "2")})
    hot = imbalance.hot_cpu("mpstat", series, data)
    assert hot is not None and hot.cpu == "3" and hot.cpus == 4 and hot.average == 30.0


def _levels(rows: list[tuple[str, str, str, float, float]]) -> Explanation:
    changes = {SeriesRef(f, m, e): Change(SeriesRef(f, m, e), 1.0, b, d) for f, m, e, b, d in rows}
    return Explanation([], changes)


def test_the_verdict_names_the_core_its_share_and_the_average() -> None:
    # the case: 8 CPUs, CPU 3 at ~96 % softirq, the others ~10 % busy
    rows = [("mpstat", "%idle", "all", 90.0, 78.0)]
    rows += [("mpstat", "%idle", str(c), 90.0, 90.0) for c in range(8) if c != 3]
    rows += [("mpstat", "%idle", "3", 86.5, 4.0), ("mpstat", "%soft", "3", 1.0, 86.7), ("mpstat", "%usr", "3", 5, 6)]
    rows += [("mpstat", "%usr", "all", 5.0, 6.0)]
    said = verdict(_levels(rows))
    assert said == "CPU 3 96 % busy (softirq 87 %) while the 8 CPUs average 22 %: network interrupts on one core"
    assert classes(_levels(rows))[0] == "network"
    hog = [("mpstat", "%idle", "all", 90.0, 45.0), ("mpstat", "%idle", "0", 90.0, 90.0)]
    hog += [("mpstat", "%idle", "1", 90.0, 0.0), ("mpstat", "%usr", "1", 8.0, 100.0)]
    assert (
        verdict(_levels(hog)) == "CPU 1 100 % busy (user 100 %) while the 2 CPUs average 55 %: a single-core bottleneck"
    )
    # a core that was saturated before the window too did not change: not this drop's cause
    steady = [("mpstat", "%idle", "all", 45.0, 45.0), ("mpstat", "%idle", "0", 90.0, 90.0)]
    steady += [("mpstat", "%idle", "1", 0.0, 0.0), ("mpstat", "%usr", "1", 100.0, 100.0)]
    assert "single-core" not in verdict(_levels(steady))


def test_diff_says_which_run_spreads_interrupts_over_more_cores() -> None:
    one = {imbalance.INTR: {"3": 40.0, **{str(c): 0.5 for c in range(8) if c != 3}}}
    eight = {imbalance.INTR: {str(c): 5.0 for c in range(8)}}
    assert imbalance.spread_notes(("A", "B"), one, eight) == [
        "run B spreads interrupts over 8 cores, run A on one (CPU 3)"
    ]
    assert imbalance.spread_notes(("A", "B"), eight, eight) == []  # alike: nothing to say
    idle = {imbalance.INTR: {"3": 1.0, **{str(c): 0.1 for c in range(8) if c != 3}}}
    assert imbalance.spread_notes(("A", "B"), idle, eight) == []  # no interrupt work to spread in A


def test_several_hot_cpus_are_counted_in_words_and_in_the_panel_title() -> None:
    t = np.arange(60.0)
    idle = {str(c): np.full(60, 70.0) for c in range(16)}
    for c in ("4", "5", "6", "7"):  # 4 of 16 at 95-97 % busy for 20 s
        idle[c][20:40] = 5.0 - int(c) % 2 * 2
    every = np.mean(list(idle.values()), axis=0)
    series = {SeriesRef("mpstat", "%idle", c): (t, v) for c, v in idle.items()}
    series[SeriesRef("mpstat", "%idle", "all")] = (t, every)
    series[SeriesRef("mpstat", "%usr", "all")] = (t, 100 - every)
    series |= {SeriesRef("mpstat", "%usr", c): (t, 100 - v) for c, v in idle.items()}

    def data(ref: SeriesRef) -> tuple[np.ndarray, np.ndarray] | None:
        return series.get(ref) or imbalance.make(ref, series.get)

    hot = imbalance.hot_cpu("mpstat", series, data)
    assert hot is not None and hot.hot == 4 and hot.cpu == "5" and round(hot.busy) == 97
    assert imbalance.describe(hot) == (
        "4 CPUs \u2265 90 % busy (CPU 5 97 %, user 97 %) while the 16 CPUs average 46 %: a bottleneck on 4 cores"
    )
    panels = layout_for_runs([1], lambda _: list(series), lambda _, ref: data(ref))
    assert panels[0].title == "CPU (%): CPU 5 and 3 more saturated"


def test_receive_softirq_steered_to_one_core_shows_in_its_interrupt_share(tmp_path: Path) -> None:
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, FIXTURES / "runs" / "softirq_one_core").id
        data = LibraryRunData(lib)
        for fmt in ("mpstat", "sar"):  # sar -u ALL -P ALL prints %irq and %soft too
            flood = {}
            for cpu in ("0", "1"):
                got = data.data(run, SeriesRef(fmt, imbalance.INTR, cpu))
                assert got is not None
                flood[cpu] = float(np.median(got[1][11:30]))  # the flood's seconds
            assert flood["1"] >= 40 and flood["1"] >= 2.5 * flood["0"], (fmt, flood)
