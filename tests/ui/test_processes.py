"""A processes panel matches processes by command across runs (issue 24); the PIDs behind each
command, per run, are in its heading's tooltip."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import FIXTURES
from tests.ui.conftest import close_window, laptop, library_of

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")


def test_a_processes_panel_names_each_run_s_pids_in_its_tooltip(qtbot, tmp_path: Path) -> None:
    text = (FIXTURES / "pidstat" / "pidstat_12.6.1_C_u-d-r-w.txt").read_text()
    folders = {}
    for name, shift in (("a", 0), ("b", 7)):
        folders[name] = tmp_path / name
        folders[name].mkdir()
        renumbered = re.sub(r"\b(3029[135])\b", lambda m, k=shift: str(int(m.group(1)) + k), text)
        (folders[name] / "pidstat.txt").write_text(renumbered)
    w = laptop(qtbot, library_of(tmp_path / "lib.sqlite", folders), tmp_path / "settings.ini")
    try:
        w.session.add_runs([r.id for r in w.session.runs()])
        qtbot.wait(50)
        (i,) = [k for k, p in enumerate(w.session.comparison.panels) if p.title.startswith("Top proc")]
        tip = w.chart.plots[i].titleLabel.toolTip()
        assert "hog in a: hog 30293" in tip and "hog in b: hog 30300" in tip
    finally:
        close_window(w)


def test_what_changed_names_the_processes_that_took_the_cpu(qtbot, tmp_path: Path) -> None:
    run = FIXTURES / "runs" / "every_collector_cpuhog"
    w = laptop(qtbot, library_of(tmp_path / "lib.sqlite", {"hog": run}), tmp_path / "settings.ini")
    try:
        s = w.session
        (rid,) = [r.id for r in s.runs()]
        s.add_runs([rid])
        (rd,) = s.findings(rid).drops
        w.show_changed(rid, rd)
        assert "processes using more CPU (pidstat): sh " in w.changed.title.text()
    finally:
        close_window(w)


def test_the_proof_row_keeps_the_collectors_that_saw_it(qtbot, tmp_path: Path) -> None:
    """The verdict's key series came first without the tools beside it (`mpstat` alone, where the
    ranked entry had vmstat, iostat and mpstat's other CPUs)."""
    from benchlens.app.ui.changed_view import proof_first

    run = FIXTURES / "runs" / "every_collector_cpuhog"
    w = laptop(qtbot, library_of(tmp_path / "lib.sqlite", {"hog": run}), tmp_path / "settings.ini")
    try:
        s = w.session
        (rid,) = [r.id for r in s.runs()]
        (rd,) = s.findings(rid).drops
        (first, also), *_ = proof_first(rd.explain)
        ranked = next(c for c in rd.explain if c.ref == first.ref)
        assert set(ranked.similar) <= set(also) and {r.format for r in also} >= {"vmstat", "iostat"}
    finally:
        close_window(w)
