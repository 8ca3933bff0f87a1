"""What `benchlens` says when something is wrong (PRODUCT.md "What bad input gets"): exit 1 and
exactly one `benchlens: ...` line on stderr for a lookup that finds nothing, a missing path, a FIFO, a
symlink loop, a folder of junk, a file that is not a library or a bad --tz; exit 130 and one line on
Ctrl-C, the library left as it was; never a traceback, not even for a truncated capture; and a
second import of the same folder says 'unchanged'."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

import benchlens.importers.iostat
from benchlens.app.cli import main
from benchlens.app.store import Library
from tests.bad_input import RUN, assert_untouched, clean, last_data_line, raising_after
from tests.conftest import FIXTURES, cli_error, make_folder, snapshot

# ---- 1. lookups, paths and libraries -------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "lib.sqlite"
    assert main(["import", str(RUN), "--db", str(path)]) == 0
    return str(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dump", "no-such-run", "--source", "iostat", "--metric", "%util"], "no run 'no-such-run'"),
        (["dump", "999", "--source", "iostat", "--metric", "%util"], "no run '999'"),
        (["dump", "c_basic", "--source", "iostat", "--metric", "nope"], "no series iostat:nope"),
        (["dump", "c_basic", "--source", "zfs", "--metric", "%util"], "no series zfs:%util"),
        (["dump", "c_basic", "--source", "mpstat", "--metric", "%usr"], "several entities"),
        (["dump", "c_basic", "--source", "mpstat", "--metric", "%usr", "--entity", "7"], "no series mpstat:%usr:7"),
        (["series", "no-such-run"], "no run 'no-such-run'"),
    ],
    ids=["unknown-run", "unknown-id", "unknown-metric", "unknown-source", "ambiguous", "unknown-entity", "series"],
)
def test_cli_lookup_errors_are_one_clear_line(
    db: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Asking for something that is not in the library: exit 1 and one line saying what is missing."""
    assert message in cli_error(capsys, *args, "--db", db)


def test_cli_import_of_a_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in the path: exit 1, one line naming the path."""
    line = cli_error(capsys, "import", str(tmp_path / "no-such-run"), "--db", str(tmp_path / "lib.sqlite"))
    assert "no-such-run" in line and "no such file" in line


def test_cli_import_of_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO path: exit 1, one line, no wait for a writer."""
    os.mkfifo(tmp_path / "pipe")
    line = cli_error(capsys, "import", str(tmp_path / "pipe"), "--db", str(tmp_path / "lib.sqlite"))
    assert "not a regular file" in line


def test_cli_good_and_bad_paths_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Importing a good folder and a missing one: the good one is imported, the bad one is one
    stderr line, exit 1."""
    db = str(tmp_path / "lib.sqlite")
    capsys.readouterr()
    rc = main(["import", str(RUN), str(tmp_path / "missing"), "--db", db])
    out, err = capsys.readouterr()
    assert rc == 1
    assert "imported" in out
    assert len(err.strip().splitlines()) == 1 and err.startswith("benchlens: ")
    with Library(db) as lib:
        assert [r.name for r in lib.runs()] == ["c_basic"]


def test_cli_db_that_is_not_a_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--db pointing at some other file: exit 1, one line, the file is left as it was."""
    other = tmp_path / "notes.sqlite"
    other.write_bytes(b"not a database at all\n" * 10)
    line = cli_error(capsys, "runs", "--db", str(other))
    assert "cannot open the library" in line
    assert other.read_bytes() == b"not a database at all\n" * 10
    other2 = tmp_path / "foreign.sqlite"
    with sqlite3.connect(other2) as c:
        c.execute("CREATE TABLE t (x)")
    assert "not a benchlens library" in cli_error(capsys, "runs", "--db", str(other2))


def test_cli_out_of_range_tz_offset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--tz +25:00 on a folder without zone evidence: one line saying the zone is not valid."""
    notimes = str(FIXTURES / "runs" / "notimes")
    line = cli_error(capsys, "import", notimes, "--tz", "+25:00", "--db", str(tmp_path / "lib.sqlite"))
    assert "+25:00" in line


def test_cli_import_of_a_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path that is a symlink loop: exit 1, one line."""
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    cli_error(capsys, "import", str(tmp_path / "a"), "--db", str(tmp_path / "lib.sqlite"))


def test_cli_import_of_a_truncated_capture_never_prints_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The c_basic folder with mpstat.log cut mid-row (stdio buffer flushed at kill): exit 0, the
    cut is a warning on stdout."""
    d = shutil.copytree(RUN, tmp_path / "run")
    data = clean("mpstat")
    start, end = last_data_line(data)
    (d / "mpstat.log").write_bytes(data[: start + (end - start) // 2])
    capsys.readouterr()
    rc = main(["import", str(d), "--db", str(tmp_path / "lib.sqlite")])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "cut" in out


# ---- 2. a folder of junk, Ctrl-C, a re-import ----------------------------------------------------


def test_folder_with_nothing_importable_is_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`benchlens import` on a folder of junk: exit 1, one `benchlens:` line listing reasons."""
    d = make_folder(
        tmp_path,
        "junk",
        {
            "empty.log": b"",
            "iostat16.log": clean("iostat").decode().encode("utf-16"),
            "core": b"\x7fELF\x02\x01\x01\x00" + bytes(1000),
            "notes.txt": b"ran sysbench for 10 min\n",
        },
    )
    line = cli_error(capsys, "import", str(d), "--db", str(tmp_path / "lib.sqlite"))
    assert "nothing to import" in line
    with Library(tmp_path / "lib.sqlite") as lib:
        assert lib.runs() == []


def test_ctrl_c_in_the_cli_is_one_line_and_leaves_the_library_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during `benchlens import`: exit 130, `benchlens: interrupted`, library as before."""
    db = tmp_path / "lib.sqlite"
    assert main(["import", str(FIXTURES / "runs" / "locales_C"), "--db", str(db)]) == 0
    with Library(db) as lib:
        before, runs = snapshot(lib.conn), lib.runs()
    monkeypatch.setattr(
        benchlens.importers.iostat, "parse", raising_after(benchlens.importers.iostat.parse, 1, KeyboardInterrupt())
    )
    capsys.readouterr()
    rc = main(["import", str(shutil.copytree(RUN, tmp_path / "new")), "--db", str(db)])
    err = capsys.readouterr().err
    assert rc == 130
    assert err.strip().splitlines() == ["benchlens: interrupted"]
    with Library(db) as lib:
        assert_untouched(lib, before, runs)


def test_cli_reimport_reports_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchlens import` twice: the second run line says 'unchanged'."""
    db = str(tmp_path / "lib.sqlite")
    d = str(shutil.copytree(RUN, tmp_path / "run"))
    assert main(["import", d, "--db", db]) == 0
    capsys.readouterr()
    assert main(["import", d, "--db", db]) == 0
    assert "unchanged" in capsys.readouterr().out.splitlines()[0]
