"""A folder holding the same capture twice keeps one, says which and why, and never merges the
two into one series with every sample doubled (issue 12)."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import numpy as np

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES, run_series

DUP = FIXTURES / "runs" / "duplicate_loops"


def test_the_same_status_loop_as_table_and_tsv_is_kept_once(lib: Library, tmp_path: Path) -> None:
    rep = import_path(lib, shutil.copytree(DUP, tmp_path / "dup"), Options(tz="UTC"))
    kept = {s.path for s in rep.sources}
    skipped = {s["path"]: s["reason"] for s in rep.skipped}
    assert len(kept & {"status_table.log.gz", "status_tsv.log.gz"}) == 1
    assert len(kept & {"iostat.log", "iostat-copy.log"}) == 1
    (status_skipped,) = [p for p in skipped if p.startswith("status")]
    (status_kept,) = [p for p in kept if p.startswith("status")]
    assert skipped[status_skipped].startswith(f"the same capture as {status_kept} (527 series, ")
    (warning,) = [w for w in rep.warnings if "status" in w]
    assert status_kept in warning and status_skipped in warning and f"{status_kept} kept (" in warning
    # one sample per snapshot, not two: 12 snapshots give 12 Uptime values and 11 rates
    series = run_series(lib, rep.id)
    uptime_t, _ = series[("global_status", "Uptime", "")]
    rate_t, _ = series[("global_status", "Com_select", "")]
    assert len(uptime_t) == 12 and len(rate_t) == 11
    assert np.all(np.diff(uptime_t) > 0.5)
    io_t, _ = series[("iostat", "w/s", "vda")]
    assert len(io_t) == 11 and np.all(np.diff(io_t) >= 1.0)


def test_rotated_halves_of_one_loop_are_not_duplicates(lib: Library, tmp_path: Path) -> None:
    """The same loop cut in two files (no common times) is one stream: both read, merged."""
    text = gzip.decompress((DUP / "status_tsv.log.gz").read_bytes())
    marks = [i for i in range(len(text)) if text.startswith(b"TS ", i) and (i == 0 or text[i - 1 : i] == b"\n")]
    folder = tmp_path / "rotated"
    folder.mkdir()
    (folder / "status.log.1").write_bytes(text[: marks[6]])
    (folder / "status.log").write_bytes(text[marks[6] :])
    rep = import_path(lib, folder, Options(tz="UTC"))
    assert len(rep.sources) == 2 and not rep.skipped and not rep.warnings
    uptime_t, _ = run_series(lib, rep.id)[("global_status", "Uptime", "")]
    assert len(uptime_t) == 12


def test_loops_of_different_captures_are_not_duplicates(lib: Library, tmp_path: Path) -> None:
    """Two real `mysqladmin ext -i1 -c4` loops of one server taken a few seconds apart (one with -r):
    the same series at the same report times (no times in either), but other values: both kept."""
    folder = tmp_path / "two"
    folder.mkdir()
    for name in ("mysqladmin-i1-c4", "mysqladmin-r-i1-c4"):
        shutil.copy(FIXTURES / "global_status" / f"global_status_mariadb-10.11.19_{name}.txt", folder)
    rep = import_path(lib, folder, Options(tz="UTC"))
    assert len(rep.sources) == 2 and not rep.skipped and not rep.warnings
