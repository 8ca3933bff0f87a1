"""Diagnosis on a recorded run that is not part of bench/drop_quality: tests/fixtures/diagnosis/
three_disturbances (sysbench on a private MariaDB 10.11 with the synch instruments on, recorded by
tests/capture/diagnosis_disturbances.sh) with four disturbances injected at known times. Each is
found with both edges within 3 s, explained first by its own resource class, and a window over it
gives the same first class as the drop."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from benchlens.app.analysis.run_drops import Findings, run_findings
from benchlens.app.analysis.window import explain_window
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES

RUN = FIXTURES / "diagnosis" / "three_disturbances"
# the disturbance, the class its explanation must rank first, and a series that must lead it
EXPECTED = {
    "read-lock": (
        "locks",
        SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/synch/cond/sql/MDL_context::COND_wait_status"),
    ),
    "cpu-system": ("cpu", None),
    "disk-burst": ("disk", None),
    "cpu-user": ("cpu", None),
}

# what the verdict must say happened (app/analysis/verdict.py)
CAUSE = {
    "read-lock": "sessions waited on the global read lock / metadata lock (MDL wait 0",
    "cpu-system": "CPU taken by another process (in the kernel)",
    "disk-burst": "another writer on the disk",
    "cpu-user": "CPU taken by other work (another process, or another client's queries)",
}


def truth() -> dict[str, tuple[float, float]]:
    rows = (line.split("\t") for line in Path(f"{RUN}.truth.tsv").read_text().splitlines() if line)
    return {name: (float(a), float(b)) for name, a, b in rows}


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LibraryRunData, int, Findings]]:
    lib = Library(tmp_path_factory.mktemp("diagnosis") / "lib.sqlite")
    run = import_path(lib, RUN).id
    data = LibraryRunData(lib)
    yield data, run, run_findings(data, run)
    lib.close()


# four disturbances in 160 s: each drop's rest holds the other three, so the throughput proves none on
# its own (a 10-s stall to 0 tps read T 1.8); the lock wait and the disk burst are confirmed by their
# cause's series (MDL wait, vda writes: app/analysis/confirm.py), the two CPU hogs (+18 points of
# system, +23 of user CPU for 12 s, on CPU counters swinging +-10 points from second to second) are
# not: their series read T 5.3 and 7.4 against 9.1, the run's false-alarm rate shared by four
CPU_UNPROVEN = (
    "a CPU hog of 12 s beside three other disturbances: neither the throughput (the others in its rest) nor "
    "the CPU's own series (T 5.3-7.4 against 9.1) proves it at one false drop per 10,000 s"
)
UNPROVEN = {"cpu-system": CPU_UNPROVEN, "cpu-user": CPU_UNPROVEN}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(reason=UNPROVEN[n], strict=True)) if n in UNPROVEN else n
        for n in EXPECTED
    ],
)
def test_each_disturbance_is_found_and_explained_by_its_class(
    recorded: tuple[LibraryRunData, int, Findings], name: str
) -> None:
    _, _, found = recorded
    start, end = truth()[name]
    (d,) = [d for d in found.drops if abs(d.drop.start - start) <= 3 and abs(d.drop.end - end) <= 3]
    klass, lead = EXPECTED[name]
    assert d.classes()[0] == klass, (d.verdict(), [c.ref.spec() for c in d.explain])
    assert CAUSE[name] in d.verdict(), d.verdict()
    if lead is not None:
        assert d.explain[0].ref == lead and d.explain[0].during > 1000  # ms of wait per second
    assert not [c for c in d.explain if c.ref.metric.endswith("_max") or c.ref.entity == "idle"]


@pytest.mark.xfail(reason=CPU_UNPROVEN, strict=True)
def test_the_cpu_hog_in_the_kernel_is_system_cpu(recorded: tuple[LibraryRunData, int, Findings]) -> None:
    _, _, found = recorded
    start = truth()["cpu-system"][0]
    (d,) = [d for d in found.drops if abs(d.drop.start - start) <= 3]
    top = d.explain[0]
    assert top.ref.metric in ("%sys", "sy", "%system") and top.during - top.before > 10  # CPU points


def test_nothing_else_is_a_drop_and_the_run_is_unstable(recorded: tuple[LibraryRunData, int, Findings]) -> None:
    _, _, found = recorded
    spans = truth().values()
    extra = [d for d in found.drops if not any(abs(d.drop.start - a) <= 3 for a, _ in spans)]
    assert all(d.drop.duration <= 5 for d in extra)  # a -31% dip of 4 s at 15-19 s is real, nothing longer
    assert found.recurring == []  # four disturbances 30 s apart of different lengths are not one rhythm
    s = found.stability
    assert s is not None and s.under_half > 0.15 and s.cv > 0.3


@pytest.mark.parametrize("name", list(EXPECTED))
def test_explaining_the_window_gives_the_drops_first_class(
    recorded: tuple[LibraryRunData, int, Findings], name: str
) -> None:
    data, run, _ = recorded
    start, end = truth()[name]
    result = explain_window(data, run, (start, end), "absolute")
    assert result.classes()[0] == EXPECTED[name][0], result.verdict()
    assert result.work < 0.5  # the throughput in the window against the steady state


BURSTY = FIXTURES / "diagnosis" / "bursty_long_drops"


def _bursty(tmp_path: Path) -> tuple[list[list[str]], Findings, float | None]:
    rows = [line.split("\t") for line in Path(f"{BURSTY}.truth.tsv").read_text().splitlines() if line]
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, BURSTY).id
        return rows, run_findings(LibraryRunData(lib), run), lib.run(run).bench_end


def test_a_bursty_run_gives_its_long_stall_whole(tmp_path: Path) -> None:
    """sysbench at a fixed rate of 15 transactions/s (per-second commits 5-29): a global read lock
    held 45 s (0 commits/s; before this detector: found 18 s late, as a fragment)."""
    rows, found, _ = _bursty(tmp_path)
    lock_a, lock_b = float(rows[0][1]), float(rows[0][2])
    (stall,) = found.drops
    assert abs(stall.drop.start - lock_a) <= 5 and abs(stall.drop.end - lock_b) <= 5 and stall.drop.depth == 1.0
    assert stall.classes()[0] == "locks"


@pytest.mark.xfail(
    reason="the latency rise (x2.3 for the last 37 s) is not significant on its own on a bursty 150-s run, and "
    "vda's writes read T 6.3 against 8.2: left out at the default sensitivity",
    strict=True,
)
def test_a_disk_burst_to_the_end_is_a_latency_rise_to_the_end(tmp_path: Path) -> None:
    """Then a disk burst to the end of the run that the throughput rides out and the latency does
    not: x2.3 for the last 37 s, which the latency's rolling baseline followed before the end-of-run
    level (drops._shifted_tail) was left out of its steady state; one rise, not fragments."""
    rows, found, end = _bursty(tmp_path)
    disk_a = float(rows[1][1])
    assert end is not None
    late = [r for r in found.rises if r.drop.start < end and r.drop.end > disk_a]
    assert late and abs(late[-1].drop.end - end) <= 2 and late[-1].drop.depth >= 1.0  # latency x2 or more
