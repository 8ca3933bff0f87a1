"""The default layout of two real runs with every collector (tests/fixtures/runs/every_collector_*:
benchlens record, pidstat and sar beside it; six busy loops for 12 s in the second): issue 24 saw
an all-zero "Network eth0" panel in the first five and the top processes sixth, below the fold at
1366x768, each run's processes entries of their own."""

from __future__ import annotations

import pytest

from benchlens.app.analysis.run_drops import run_findings
from benchlens.app.figure import blog_layout, default_layout
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory):
    from benchlens.app.store import Library

    with Library(tmp_path_factory.mktemp("every") / "lib.sqlite") as lib:
        ids = [import_path(lib, FIXTURES / "runs" / f"every_collector_{n}").id for n in ("quiet", "cpuhog")]
        yield LibraryRunData(lib), ids


def test_the_cpu_hog_s_processes_are_in_the_first_four_and_the_idle_network_is_out(runs) -> None:
    data, ids = runs
    assert any(r.format == "sar" and r.entity == "eth0" for r in data.available(ids[1]))
    for shown in (default_layout(data, ids), default_layout(data, ids[1:]), blog_layout(data, ids)):
        titles = [p.title for p in shown]
        assert "Top processes: CPU (%)" in titles[:4] and not any(t.startswith("Network") for t in titles)


def test_each_run_s_mariadbd_is_one_entry(runs) -> None:
    data, ids = runs
    (procs,) = [p for p in default_layout(data, ids) if p.title.startswith("Top processes")]
    names = [r.entity for r in procs.refs]
    assert "mariadbd" in names and "sh" in names  # the busy loops, summed under their command
    for run in ids:  # in each run its own process (one server here: the same PID; other PIDs: test_layout_formats)
        assert data.commands[(run, procs.refs[names.index("mariadbd")])].startswith("mariadbd ")
    sh = [e for e in data.commands.get((ids[1], procs.refs[names.index("sh")]), "").split(", ") if e]
    assert len(sh) >= 6  # six busy loops (and sysbench's own shell), one entry


def test_the_cpu_hog_s_processes_are_named(runs) -> None:
    """What changed during the hog named no process although pidstat has them: the six busy loops
    (`sh`) went from nothing to more than a CPU."""
    from benchlens.app.analysis.processes import process_changes

    data, ids = runs
    (rd,) = [d for d in run_findings(data, ids[1]).drops]
    rose = process_changes(data, ids[1], (rd.drop.start, rd.drop.end))
    assert rose and rose[0].command == "sh" and rose[0].before < 20 and rose[0].during > 100
    assert "mariadbd" not in [p.command for p in rose]  # it ran as before, slower
