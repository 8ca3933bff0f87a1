"""A failed import leaves the library as it was (one transaction per import): an error while
writing, an error or Ctrl-C while parsing and a cancel from the progress callback leave no run and no
orphan rows, and a failed re-import keeps the previous data. Re-importing an unchanged (or only
touched) folder is a no-op; changed content replaces the run's data under the same id."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

import benchlens.importers.mpstat
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from benchlens.app.store import writer as store_writer
from benchlens.importers._types import ImportCancelled
from tests.bad_input import RUN, assert_untouched, clean, orphans, raising_after
from tests.conftest import assert_same_series, run_series, snapshot

# ---- 1. a failed import leaves the library as it was ---------------------------------------------


def test_error_while_writing_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure after one source is fully written (SeriesSink.close of the second raises): no new
    run, no leftover sources/series/times/chunks, and the next import works."""
    lib = populated
    before, runs = snapshot(lib.conn), lib.runs()
    real_close = store_writer.SeriesSink.close
    calls = []

    def close(self: Any) -> tuple[int, int]:
        calls.append(1)
        out = real_close(self)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return out

    monkeypatch.setattr(store_writer.SeriesSink, "close", close)
    d = shutil.copytree(RUN, tmp_path / "new")
    with pytest.raises(RuntimeError, match="disk on fire"):
        import_path(lib, d)
    assert len(calls) == 2
    assert_untouched(lib, before, runs)
    monkeypatch.undo()
    rep = import_path(lib, d)
    assert not rep.unchanged and len(rep.sources) == 3
    assert orphans(lib) == {}


@pytest.mark.parametrize("exc", [RuntimeError("parser bug"), KeyboardInterrupt()], ids=["RuntimeError", "Ctrl-C"])
def test_interrupted_parse_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    """An error or Ctrl-C while mpstat.log streams in (after iostat.log is written): nothing stays."""
    lib = populated
    before, runs = snapshot(lib.conn), lib.runs()
    monkeypatch.setattr(benchlens.importers.mpstat, "parse", raising_after(benchlens.importers.mpstat.parse, 2, exc))
    with pytest.raises(type(exc)):
        import_path(lib, shutil.copytree(RUN, tmp_path / "new"))
    assert_untouched(lib, before, runs)


@pytest.mark.parametrize("exc", [ImportCancelled, KeyboardInterrupt])
def test_cancel_from_the_progress_callback_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, exc: type[BaseException]
) -> None:
    """Cancel (or Ctrl-C) raised from the progress callback once bytes were read: nothing stays."""
    lib = populated
    before, runs = snapshot(lib.conn), lib.runs()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done > 0:
            raise exc()

    with pytest.raises(exc):
        import_path(lib, shutil.copytree(RUN, tmp_path / "new"), Options(progress=progress))
    assert seen
    assert_untouched(lib, before, runs)


def test_failed_reimport_keeps_the_previous_data(lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed folder whose re-import fails half-way keeps the run exactly as it was imported."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before, runs = snapshot(lib.conn), lib.runs()
    (d / "vmstat.log").write_bytes(clean("vmstat") + clean("vmstat").splitlines(keepends=True)[-1])
    monkeypatch.setattr(
        benchlens.importers.mpstat, "parse", raising_after(benchlens.importers.mpstat.parse, 1, KeyboardInterrupt())
    )
    with pytest.raises(KeyboardInterrupt):
        import_path(lib, d)
    assert_untouched(lib, before, runs)
    assert lib.run(first.id).id == first.id


# ---- 2. re-importing -----------------------------------------------------------------------------


def test_reimporting_an_unchanged_folder_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """The second import says 'unchanged', keeps the run id, writes nothing."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib.conn)
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert snapshot(lib.conn) == before
    assert [(s.path, s.series, s.samples) for s in again.sources] == [
        (s.path, s.series, s.samples) for s in first.sources
    ]


def test_touching_files_without_changing_them_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """A newer mtime with the same bytes (copied again, `touch`) is still 'unchanged'."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib.conn)
    for p in d.iterdir():
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 3_600_000_000_000))
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert snapshot(lib.conn) == before


def test_adding_unknown_files_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """A my.cnf dropped into an imported folder changes nothing (it is listed as skipped)."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib.conn)
    (d / "my.cnf").write_text("[mysqld]\n")
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert [s["path"] for s in again.skipped] == ["my.cnf"]
    assert snapshot(lib.conn) == before


def test_changed_content_replaces_the_run_data_under_the_same_id(lib: Library, tmp_path: Path) -> None:
    """iostat.log losing its last report: same run id, data equal to a fresh import of the new
    folder, one run, no leftovers of the old data."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    raw = clean("iostat")
    (d / "iostat.log").write_bytes(raw[: raw.rstrip(b"\n").rfind(b"\n\n\n") + 3])
    again = import_path(lib, d)
    assert again.unchanged is False and again.id == first.id
    assert len(lib.runs()) == 1
    assert orphans(lib) == {}
    with Library(tmp_path / "fresh.sqlite") as fresh:
        ref = import_path(fresh, d)
        assert_same_series(run_series(lib, again.id), run_series(fresh, ref.id))
    n_io = {s.path: s.samples for s in again.sources}["iostat.log"]
    assert n_io < {s.path: s.samples for s in first.sources}["iostat.log"]


def test_removed_file_disappears_from_the_run(lib: Library, tmp_path: Path) -> None:
    """Deleting mpstat.log from the folder and re-importing drops its series."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    (d / "mpstat.log").unlink()
    again = import_path(lib, d)
    assert again.id == first.id and not again.unchanged
    assert {s.format for s in lib.series(again.id)} == {"iostat", "vmstat"}
    assert orphans(lib) == {}
