"""Summaries that are not time series, in a run folder (issue 22): a pidstat file of `Average:` rows
only and a `vmstat -s` without a time are listed as skipped in words that say what they are (they
were "not a known format"); a `date; vmstat -s` loop imports on the folder's clock from its own
`date` lines. Real captures (tests/fixtures/pidstat/MANIFEST.md, tests/fixtures/vmstat/MANIFEST.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

from benchlens.app.ingest import import_path
from benchlens.app.store import Library
from tests.bad_input import RUN
from tests.conftest import FIXTURES, run_series

SUMMARIES = {
    "pidstat-avg.txt": FIXTURES / "pidstat" / "pidstat_12.6.1_C_u_averages-only.txt",
    "pidstat-summary.txt": FIXTURES / "pidstat" / "pidstat_12.6.1_de_DE_u-d_averages-only.txt",
    "vmstat-s.txt": FIXTURES / "vmstat" / "refused" / "vmstat_4.0.2_C_s.txt",
    "vmstat-s-de.txt": FIXTURES / "vmstat" / "refused" / "vmstat_4.0.2_de_DE_s-loop-date.txt",
}
WHY = {
    "pidstat-avg.txt": "looks like pidstat but no series could be read from it: pidstat averages only "
    "(`Average:` rows, no timed samples): nothing to place in time",
    "pidstat-summary.txt": "looks like pidstat but no series could be read from it: pidstat averages only "
    "(`Average:` rows, no timed samples): nothing to place in time",
    "vmstat-s.txt": "looks like vmstat but no series could be read from it: vmstat -s summary without a "
    "`date` line benchlens reads before it (28 lines): no time to place it at",
    "vmstat-s-de.txt": "looks like vmstat but no series could be read from it: vmstat -s summary without a "
    "`date` line benchlens reads before it (84 lines): no time to place it at",
}


def test_summaries_are_skipped_with_what_they_are(lib: Library, tmp_path: Path) -> None:
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    for name, path in SUMMARIES.items():
        shutil.copy(path, d / name)
    rep = import_path(lib, d)
    assert not set(SUMMARIES) & {s.path for s in rep.sources}
    assert {s["path"]: s["reason"] for s in rep.skipped if s["path"] in SUMMARIES} == WHY


def test_a_vmstat_s_loop_imports_at_its_date_lines(lib: Library, tmp_path: Path) -> None:
    d = tmp_path / "run"
    d.mkdir()
    shutil.copy(FIXTURES / "vmstat" / "vmstat_4.0.2_C_s-loop-date.txt", d / "vmstat-s.log")
    rep = import_path(lib, d)
    (src,) = rep.sources
    assert src.series == 27 and not src.warnings
    series = run_series(lib, rep.id)
    t, v = series[("vmstat", "used memory", "")]
    assert t.tolist() == [1795738966.0, 1795738968.0, 1795738969.0]  # Fri Nov 27 00:22:46 UTC 2026 ...
    assert v.tolist() == [593472.0, 616608.0, 616520.0]
