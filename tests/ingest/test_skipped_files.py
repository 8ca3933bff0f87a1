"""What is not imported, and why (PRODUCT.md "What bad input gets"): unknown, binary, empty and
wrong-encoding files, folders, FIFOs, sockets, devices and broken links in a run folder are listed as
skipped with a reason, never opened when they are not regular files; a single such file given as the
path is refused with its reason. The c_basic captures next to them import as if alone."""

from __future__ import annotations

import builtins
import gzip
import io
import os
import re
import shutil
import socket
from pathlib import Path
from typing import Any

import pytest

from benchlens.app.ingest import FolderError, import_path
from benchlens.app.store import Library
from tests.bad_input import RUN, clean
from tests.conftest import FIXTURES, assert_same_series, run_cli, run_series

# ---- 1. unknown files in a folder ----------------------------------------------------------------


def test_folder_with_unknown_files_imports_the_known_ones_and_lists_the_rest(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user sees the three logs imported and every other entry listed as skipped with a reason;
    the FIFO, the socket and the device link are never opened (the import cannot hang on them)."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    # a note, no format (a my.cnf is read since #14: the run's configuration)
    (d / "notes.txt").write_text("tuning notes\ninnodb_buffer_pool_size 8G, max_connections 500\n")
    (d / "core.bin").write_bytes(bytes(range(256)) * 64)
    (d / "empty.log").write_bytes(b"")
    (d / "logs").mkdir()
    shutil.copy(RUN / "iostat.log", d / "logs" / "iostat.log")
    os.mkfifo(d / "pipe")
    os.symlink(d / "nowhere", d / "dangling")
    os.symlink(d / "loop_b", d / "loop_a")
    os.symlink(d / "loop_a", d / "loop_b")
    os.symlink(d / "pipe", d / "link_to_pipe")
    if Path("/dev/zero").exists():
        os.symlink("/dev/zero", d / "zero")
    if len(str(d / "sock")) < 100:  # AF_UNIX path limit
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(d / "sock"))
    special = {str(d / n) for n in ("pipe", "link_to_pipe", "zero", "sock")}
    opened: list[str] = []

    def guard(real: Any) -> Any:
        def wrapper(path: Any, *a: Any, **k: Any) -> Any:
            if isinstance(path, str | os.PathLike) and os.fspath(path) in special:
                opened.append(os.fspath(path))
                raise AssertionError(f"opened {path}")
            return real(path, *a, **k)

        return wrapper

    monkeypatch.setattr(os, "open", guard(os.open))
    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(io, "open", guard(io.open))

    rep = import_path(lib, d)
    assert opened == []
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    skipped = {s["path"]: s["reason"] for s in rep.skipped}
    expected = {"notes.txt", "core.bin", "empty.log", "logs", "pipe", "dangling", "loop_a", "loop_b", "link_to_pipe"}
    expected |= {n for n in ("sock", "zero") if os.path.lexists(d / n)}
    assert set(skipped) == expected
    assert all(reason.strip() for reason in skipped.values())
    assert "not a known format" in skipped["notes.txt"]
    assert "binary" in skipped["core.bin"]
    assert "empty" in skipped["empty.log"]
    assert "folder" in skipped["logs"]
    for special_entry in ("pipe", "link_to_pipe", "sock", "zero"):
        if special_entry in skipped:
            assert "not a regular file" in skipped[special_entry]
    assert "cannot read" in skipped["dangling"]
    assert "cannot read" in skipped["loop_a"]

    monkeypatch.undo()
    plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"))
    assert_same_series(run_series(lib, rep.id), run_series(lib, plain.id))


def test_fifo_given_as_the_path_is_refused_without_being_opened(lib: Library, tmp_path: Path) -> None:
    """`benchlens import some.fifo` says it is not a regular file; it does not wait for a writer."""
    fifo = tmp_path / "capture.log"
    os.mkfifo(fifo)
    with pytest.raises(FolderError, match="not a regular file"):
        import_path(lib, fifo)
    assert lib.runs() == []


def test_file_matching_two_formats_is_skipped_as_ambiguous(lib: Library, tmp_path: Path) -> None:
    """vmstat and iostat output glued into one file is listed as skipped (ambiguous), never guessed."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    (d / "both.log").write_bytes(clean("vmstat") + clean("iostat"))
    rep = import_path(lib, d)
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    reasons = {s["path"]: s["reason"] for s in rep.skipped}
    assert "several formats" in reasons["both.log"]


# ---- 2. binary, empty, wrong encoding ------------------------------------------------------------

ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be", "utf-32"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_wrong_encoding_is_skipped_with_a_reason(lib: Library, tmp_path: Path, encoding: str) -> None:
    """A UTF-16/32 copy of a capture (e.g. saved by a Windows editor) is listed as skipped."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    (d / "iostat16.log").write_bytes(clean("iostat").decode().encode(encoding))
    rep = import_path(lib, d)
    reasons = {s["path"]: s["reason"] for s in rep.skipped}
    assert re.search(r"binary|UTF|not text", reasons["iostat16.log"]), reasons["iostat16.log"]
    assert len(rep.sources) == 3


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.log", b"", "empty file"),
        ("utf16.log", clean("iostat").decode().encode("utf-16"), "UTF"),
        ("binary.log", bytes(range(256)) * 256, "binary"),
        ("gzipped.bin.gz", gzip.compress(bytes(range(256)) * 256, mtime=0), "binary"),
        ("notes.log", b"tuning notes\nport 3306\n", "not a known format"),
        ("my.cnf", b"[mysqld]\nport = 3306\n", "settings only"),  # a configuration is no run (#14)
    ],
)
def test_single_unreadable_file_is_refused_with_its_reason(
    lib: Library, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    """Importing one such file names the file and why it is not imported; the library stays empty."""
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(FolderError, match=re.escape(f"nothing to import ({name}: ") + f".*{reason}"):
        import_path(lib, path)
    assert lib.runs() == []


# ---- 5. files recognised but giving nothing --------------------------------------------------------

HUMAN = FIXTURES / "iostat" / "iostat_12.6.1_C_human-x.txt"  # real `iostat -x --human`: refused, with a reason


def test_recognised_file_without_series_is_listed_as_failed_not_imported(lib: Library, tmp_path: Path) -> None:
    """Issue 13: a file detected as a format that gives 0 series was reported "imported" (a
    source with 0 series). It is listed as skipped with its format and why, and nothing of it stays."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    shutil.copy(HUMAN, d / "iostat-human.txt")
    rep = import_path(lib, d)
    assert "iostat-human.txt" not in {s.path for s in rep.sources}
    assert all(s.series > 0 for s in rep.sources)
    (skip,) = [s for s in rep.skipped if s["path"] == "iostat-human.txt"]
    assert skip["reason"].startswith("looks like iostat but no series could be read from it: line 4: ")
    assert "--human" in skip["reason"]  # the importer's own explanation comes along
    assert "iostat-human.txt" not in {s.path for s in lib.sources(rep.id)}


def test_folder_where_nothing_gives_series_is_an_error(tmp_path: Path) -> None:
    """Only such files: the import fails (exit 1) naming the file and the reason; the library stays empty."""
    d = tmp_path / "run"
    d.mkdir()
    shutil.copy(HUMAN, d / "iostat-human.txt")
    db = tmp_path / "lib.sqlite"
    p = run_cli(tmp_path, "import", str(d), "--db", str(db))
    assert p.returncode == 1, p.stdout
    assert "nothing to import (iostat-human.txt: looks like iostat but no series" in p.stderr
    assert "imported" not in p.stdout
    with Library(db) as lib:
        assert lib.runs() == []
