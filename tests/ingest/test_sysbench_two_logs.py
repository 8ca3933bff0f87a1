"""Two sysbench logs in one folder, one with interval reports and one of a run's summary only.

sysbench ends every run's output with its summary, reports or not. So a summary-only log beside an
interval log is either the same run twice (the summary cut from that output: the same totals and
total time) or another run. The same run's summary is skipped, with a warning: its one point (the
run's average) would sit beside the last report as a false sample. Another run's summary is
kept: its point is in the merged `tps`. The logs are the real captures of tests/fixtures/sysbench
(MANIFEST there); the copy is the summary cut from the interval log as `sed -n '/^SQL/,$p'` does."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from benchlens.importers.sysbench import summary_copies
from tests.conftest import FIXTURES

SYSBENCH = FIXTURES / "sysbench"
INTERVAL = SYSBENCH / "sysbench_1.0.20_C_oltp-read-write.txt"  # 90 reports, then its summary
OTHER_RUN = SYSBENCH / "sysbench_1.0.20_C_oltp-read-only-summary-only.txt"  # another run's summary
STEP_RUNS = SYSBENCH / "sysbench_1.0.20_C_oltp-read-only-summary-only-step-load-99pct.txt"


def _cut_summary(text: str) -> str:
    return text[text.index("SQL statistics:") :]


def _tps(folder: Path, tmp_path: Path) -> tuple[np.ndarray, dict[str, object]]:
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        _, v = lib.load(next(s for s in lib.series(rep.id) if s.metric == "tps" and s.format == "sysbench"))
        return v, {"skipped": rep.skipped, "warnings": rep.warnings, "sources": [s.path for s in rep.sources]}


def _folder(tmp_path: Path, summary: str) -> Path:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "sysbench.log").write_text(INTERVAL.read_text())
    (folder / "summary.txt").write_text(summary)
    return folder


def test_the_same_runs_summary_is_skipped(tmp_path: Path) -> None:
    tps, rep = _tps(_folder(tmp_path, _cut_summary(INTERVAL.read_text())), tmp_path)
    assert len(tps) == 90 and 928.68 not in tps  # the reports only, not the run's average
    assert rep["sources"] == ["sysbench.log"]
    assert [s["path"] for s in rep["skipped"]] == ["summary.txt"]  # type: ignore[attr-defined]
    assert any("summary.txt is the summary of the run" in w for w in rep["warnings"])  # type: ignore[attr-defined]


def test_another_runs_summary_is_kept(tmp_path: Path) -> None:
    tps, rep = _tps(_folder(tmp_path, OTHER_RUN.read_text()), tmp_path)
    assert len(tps) == 91 and 1345.81 in tps
    assert sorted(rep["sources"]) == ["summary.txt", "sysbench.log"]  # type: ignore[call-overload]
    assert rep["skipped"] == []


def test_copies_are_told_by_their_totals() -> None:
    interval, other, steps = INTERVAL.read_text(), OTHER_RUN.read_text(), STEP_RUNS.read_text()
    cut = _cut_summary(interval)
    assert summary_copies({"a": interval, "b": cut}) == {"b": "a"}
    whole = interval[: interval.index("[ 1s ]")] + cut  # the header kept: the thread count too
    assert summary_copies({"a": interval, "b": whole}) == {"b": "a"}
    assert summary_copies({"a": interval, "b": other, "c": steps}) == {}
    assert summary_copies({"b": cut, "c": steps}) == {}  # no log of reports: nothing is a copy
    edited = cut.replace("83587  (928.68 per sec.)", "83587  (928.69 per sec.)")
    assert summary_copies({"a": interval, "b": edited}) == {}


def test_a_cut_summary_alone_is_read_as_its_run(tmp_path: Path) -> None:
    """`sed -n '/^SQL statistics/,$p'` of a log (no banner) is recognised as sysbench: one point."""
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "summary.txt").write_text(_cut_summary(INTERVAL.read_text()))
    tps, rep = _tps(folder, tmp_path)
    assert tps.tolist() == [928.68] and rep["sources"] == ["summary.txt"]
