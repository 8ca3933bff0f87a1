"""Crash safety and concurrent writers: `kill -9` of `benchlens import` at any moment (while files
are parsed, while series are written, inside COMMIT, while the library is closed) leaves a library
that passes PRAGMA integrity_check and holds either none of the killed import or all of it, and a
re-import then succeeds; two imports at once (the app's worker thread and the CLI, or two CLIs)
both succeed; a lock held too long is one clear line; the library is backed up before a schema
upgrade (committed data still in the WAL included) and a library from a newer benchlens is refused.

The killed imports run in real subprocesses on a generated ~15 MB vmstat capture (a second or two
of work here) next to the real c_basic iostat and mpstat captures."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import benchlens.app.store.library as library_mod
import benchlens.app.store.migrations as migrations
from benchlens.app.cli import main
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library, LibraryError
from tests.conftest import FIXTURES, ROOT, TABLES, cli_error, run_series, snapshot

RUN = FIXTURES / "runs" / "c_basic"
BIG_LINES = 150_000
HANG = 300  # seconds: only catches a hang, never a measure
pytestmark = pytest.mark.usefixtures("remove_big_files")  # inputs and libraries here are big


# ---- a big run folder, its reference import, a library holding an earlier run ------------------


def write_big_vmstat(path: Path, lines: int) -> None:
    """A `vmstat -t 1` capture of `lines` reports, shaped like c_basic's (same header and zone)."""
    header = (RUN / "vmstat.log").read_text().splitlines()[:2]
    rng = np.random.default_rng(7)
    cols = np.column_stack(
        [
            rng.integers(0, 9, lines),
            rng.integers(0, 3, lines),
            np.zeros(lines, int),
            rng.integers(10**6, 3 * 10**7, lines),
            np.full(lines, 79036),
            np.full(lines, 3210572),
            np.zeros(lines, int),
            np.zeros(lines, int),
            rng.integers(0, 30000, lines),
            rng.integers(0, 30000, lines),
            rng.integers(30, 900, lines),
            rng.integers(30, 1200, lines),
            rng.integers(0, 50, lines),
            rng.integers(0, 20, lines),
            rng.integers(20, 80, lines),
            rng.integers(0, 9, lines),
            np.zeros(lines, int),
        ]
    )
    t0 = np.datetime64("2026-11-22T02:47:13", "s")
    stamps = np.datetime_as_string(t0 + np.arange(lines), unit="s")
    with path.open("w") as f:
        f.write("\n".join(header) + "\n")
        for k in range(0, lines, 20_000):
            rows = cols[k : k + 20_000]
            f.writelines(
                " ".join(str(v) for v in row) + " " + s.replace("T", " ") + "\n"
                for row, s in zip(rows.tolist(), stamps[k : k + 20_000], strict=True)
            )


@pytest.fixture(scope="module")
def big_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    d = tmp_path_factory.mktemp("big") / "big_run"
    d.mkdir()
    shutil.copy(RUN / "iostat.log", d / "iostat.log")
    shutil.copy(RUN / "mpstat.log", d / "mpstat.log")
    write_big_vmstat(d / "vmstat.log", BIG_LINES)
    yield d
    shutil.rmtree(d.parent, ignore_errors=True)


@pytest.fixture(scope="module")
def reference(big_run: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The big folder imported undisturbed: its series and the rows it adds."""
    db = tmp_path_factory.mktemp("ref") / "ref.sqlite"
    with Library(db) as lib:
        rep = import_path(lib, big_run, Options(tz="UTC"))
        counts = table_counts(lib.conn)
        ref = {"series": run_series(lib, rep.id), "counts": counts, "name": rep.name}
    shutil.rmtree(db.parent, ignore_errors=True)
    return ref


@pytest.fixture(scope="module")
def earlier_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library holding one run already (checkpointed and closed)."""
    db = tmp_path_factory.mktemp("earlier") / "lib.sqlite"
    with Library(db) as lib:
        import_path(lib, FIXTURES / "runs" / "locales_C", Options(tz="UTC"))
    return db


@pytest.fixture
def db(earlier_lib: Path, tmp_path: Path) -> Path:
    path = tmp_path / "lib.sqlite"
    shutil.copy(earlier_lib, path)
    return path


def table_counts(conn: sqlite3.Connection) -> dict[str, int]:
    return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}


def assert_intact(path: Path) -> None:
    """The file passes SQLite's own checks (opened raw: nothing of benchlens runs first)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    finally:
        conn.close()


def import_state(path: Path, before: dict[str, list[tuple[Any, ...]]], reference: dict[str, Any]) -> str:
    """'absent' (the library is exactly as before the killed import) or 'complete' (the import is
    all there, equal to the reference import); anything else fails the test."""
    assert_intact(path)
    with Library(path) as lib:
        now = snapshot(lib.conn)
        names = [r.name for r in lib.runs()]
        if now == before:
            return "absent"
        assert reference["name"] in names, f"rows changed without a run: {table_counts(lib.conn)}"
        for t in TABLES:  # the earlier rows unchanged, the new ones exactly the reference's
            assert now[t][: len(before[t])] == before[t], t
        new = lib.run(reference["name"])
        got = run_series(lib, new.id)
        assert set(got) == set(reference["series"])
        for key, (t, v) in reference["series"].items():
            assert np.array_equal(got[key][0], t), key
            assert np.array_equal(got[key][1], v, equal_nan=True), key
        added = {k: n - len(before[k]) for k, n in table_counts(lib.conn).items()}
        ref_added = {k: reference["counts"][k] for k in TABLES}
        assert added == ref_added
        return "complete"


def before_of(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    with Library(path) as lib:
        return snapshot(lib.conn)


# ---- the killed process -------------------------------------------------------------------------

# Runs `benchlens ARGS` with a hook that SIGKILLs the process at one moment of the import.
HOOKED = r"""
import os, signal, sys, threading, time
point, arg = sys.argv[1], float(sys.argv[2])
def die():
    os.kill(os.getpid(), signal.SIGKILL)
if point == "parse":  # after `arg` bytes of the streamed files were read (reader thread)
    from benchlens.importers import _read
    real_got = _read.Reading._got
    def _got(self, data):
        out = real_got(self, data)
        if self.sha is not None and self.done >= arg:
            die()
        return out
    _read.Reading._got = _got
elif point == "writes":  # once series of `arg` points or more were written (uncommitted)
    from benchlens.app.store import writer
    real_flush = writer.SeriesSink._flush
    def _flush(self, key):
        points = self.pending_points[key]
        real_flush(self, key)
        if points >= arg:
            die()
    writer.SeriesSink._flush = _flush
elif point in ("before-commit", "mid-commit", "after-commit"):
    from benchlens.app.store import writer
    real_commit = writer.ImportTxn.commit
    def commit(self):
        if point == "before-commit":
            die()
        if point == "mid-commit":  # `arg` seconds into COMMIT (or just after it)
            threading.Timer(arg, die).start()
        real_commit(self)
        if point == "after-commit":
            die()
        if point == "mid-commit":
            time.sleep(60)
    writer.ImportTxn.commit = commit
elif point == "close":  # `arg` seconds into closing the library (WAL checkpoint)
    from benchlens.app.store import library
    real_close = library.Library.close
    def close(self):
        threading.Timer(arg, die).start()
        real_close(self)
        time.sleep(60)
    library.Library.close = close
elif point == "migrate":  # inside the upgrade transaction, after the step's SQL ran
    from benchlens.app.store import migrations
    step = "ALTER TABLE runs ADD COLUMN test_x TEXT"
    migrations.MIGRATIONS.append((migrations.SCHEMA_VERSION + 1, "test step", step))
    migrations.SCHEMA_VERSION += 1
    real_apply = migrations._apply
    def _apply(conn, version):
        real_apply(conn, version)
        die()
    migrations._apply = _apply
from benchlens.app.cli import main
sys.exit(main(sys.argv[3:]))
"""


def env() -> dict[str, str]:
    return {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp"), "PYTHONPATH": str(ROOT)}


def hooked(point: str, arg: float, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", HOOKED, point, str(arg), *args],
        capture_output=True,
        text=True,
        timeout=HANG,
        cwd=ROOT,
        env=env(),
    )


def cli(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "benchlens.app.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env(),
    )


def reimport_ok(db: Path, folder: Path, reference: dict[str, Any], before: dict[str, Any]) -> None:
    """After the kill, `benchlens import` of the same folder succeeds and the run is complete."""
    p = cli("import", str(folder), "--db", str(db), "--tz", "UTC")
    _out, err = p.communicate(timeout=HANG)
    assert p.returncode == 0, err
    assert "Traceback" not in err
    assert import_state(db, before, reference) == "complete"


KILLED_BEFORE_COMMIT = [
    ("parse", 4 << 20),  # vmstat.log streaming in, iostat and mpstat written in the transaction
    ("parse", 8 << 20),
    ("writes", 0),  # the first series written (iostat's)
    ("writes", 100_000),  # the big vmstat series written: their pages spilled to the WAL
    ("before-commit", 0),
]


@pytest.mark.parametrize(("point", "arg"), KILLED_BEFORE_COMMIT, ids=lambda x: str(x))
def test_kill_before_commit_leaves_nothing_of_the_import(
    db: Path, big_run: Path, reference: dict[str, Any], point: str, arg: float
) -> None:
    """SIGKILL while the big vmstat streams in (after the other two files were written in the same
    transaction), after series chunks were flushed to the WAL, or just before COMMIT: the library
    passes integrity_check and is exactly as before; a re-import succeeds."""
    before = before_of(db)
    p = hooked(point, arg, "import", str(big_run), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert Path(f"{db}-wal").exists()  # the killed process left its WAL behind, as a crash does
    assert import_state(db, before, reference) == "absent"
    reimport_ok(db, big_run, reference, before)


def test_kill_right_after_commit_keeps_the_whole_import(db: Path, big_run: Path, reference: dict[str, Any]) -> None:
    """Killed once COMMIT returned (nothing checkpointed, the WAL not merged): the run is all there."""
    before = before_of(db)
    p = hooked("after-commit", 0, "import", str(big_run), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert import_state(db, before, reference) == "complete"


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.005, 0.02])
def test_kill_inside_commit_is_all_or_nothing(db: Path, big_run: Path, reference: dict[str, Any], delay: float) -> None:
    """SIGKILL a few moments into COMMIT: either no trace of the import or all of it."""
    before = before_of(db)
    p = hooked("mid-commit", delay, "import", str(big_run), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    if import_state(db, before, reference) == "absent":
        reimport_ok(db, big_run, reference, before)


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.05])
def test_kill_while_closing_keeps_the_whole_import(
    db: Path, big_run: Path, reference: dict[str, Any], delay: float
) -> None:
    """SIGKILL while the library is closed (the WAL being checkpointed into the main file)."""
    before = before_of(db)
    p = hooked("close", delay, "import", str(big_run), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert import_state(db, before, reference) == "complete"


@pytest.mark.parametrize("delay", [0.4, 0.9, 1.5, 2.5])
def test_kill_9_after_a_delay(db: Path, big_run: Path, reference: dict[str, Any], delay: float) -> None:
    """`kill -9` of a plain `benchlens import` after a delay (start-up, sniffing, parsing, writing,
    committing, or done): the library is intact and holds none or all of the import."""
    before = before_of(db)
    p = cli("import", str(big_run), "--db", str(db), "--tz", "UTC")
    try:
        p.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=HANG)
    if import_state(db, before, reference) == "absent":
        reimport_ok(db, big_run, reference, before)


def test_kill_during_a_reimport_keeps_the_previous_data(
    db: Path, big_run: Path, reference: dict[str, Any], tmp_path: Path
) -> None:
    """A changed folder re-imported (the old sources are deleted first, in the same transaction)
    and killed mid-way: the run keeps its previous data exactly."""
    folder = shutil.copytree(big_run, tmp_path / "big_run")
    assert main(["import", str(folder), "--db", str(db), "--tz", "UTC"]) == 0
    before = before_of(db)
    with (folder / "mpstat.log").open("a") as f:  # a changed file: the folder is imported again
        f.write("\n")
    p = hooked("writes", 100_000, "import", str(folder), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert_intact(db)
    with Library(db) as lib:
        assert snapshot(lib.conn) == before


def test_kill_during_a_schema_upgrade_keeps_the_old_library(db: Path) -> None:
    """Killed inside the upgrade transaction (the step's SQL done, not committed): the file is
    still the old version, intact, and opens with this benchlens."""
    before = before_of(db)
    p = hooked("migrate", 0, "runs", "--db", str(db))
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert_intact(db)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT
        assert "test_x" not in [r[1] for r in conn.execute("PRAGMA table_info(runs)")]
    finally:
        conn.close()
    with Library(db) as lib:
        assert snapshot(lib.conn) == before


# ---- two writers at once ------------------------------------------------------------------------


def test_app_import_and_cli_import_at_the_same_time(db: Path, tmp_path: Path) -> None:
    """The app's import (import_path in a worker thread, with its own connection, as the import
    dialog does) holds the write lock while a `benchlens import` process starts: the CLI waits
    (busy timeout) and both imports succeed."""
    inside = threading.Event()
    result: dict[str, Any] = {}

    def hold(done: int, total: int) -> None:
        if not inside.is_set():
            inside.set()
            time.sleep(1.5)  # keeps the write transaction open while the CLI starts

    def app_side() -> None:
        try:
            with Library(db) as lib:
                result["report"] = import_path(lib, RUN, Options(tz="UTC", progress=hold))
        except BaseException as e:
            result["error"] = e

    worker = threading.Thread(target=app_side)
    worker.start()
    assert inside.wait(timeout=HANG)
    p = cli("import", str(FIXTURES / "runs" / "locales_de_DE"), "--db", str(db), "--tz", "UTC")
    out, err = p.communicate(timeout=HANG)
    worker.join(timeout=HANG)
    assert "error" not in result, result.get("error")
    assert p.returncode == 0, err
    assert "imported" in out
    assert_intact(db)
    with Library(db) as lib:
        assert {r.name for r in lib.runs()} == {"locales_C", "c_basic", "locales_de_DE"}


def test_two_cli_imports_at_the_same_time(db: Path, big_run: Path, reference: dict[str, Any], tmp_path: Path) -> None:
    """Two `benchlens import` processes on one library at once (one with the big folder, a few
    seconds of writing): both exit 0 and both runs are complete."""
    before = before_of(db)
    a = cli("import", str(big_run), "--db", str(db), "--tz", "UTC")
    b = cli("import", str(RUN), "--db", str(db), "--tz", "UTC")
    _out_a, err_a = a.communicate(timeout=HANG)
    _out_b, err_b = b.communicate(timeout=HANG)
    assert a.returncode == 0, err_a
    assert b.returncode == 0, err_b
    assert_intact(db)
    with Library(db) as lib:
        assert {r.name for r in lib.runs()} == {"locales_C", "big_run", "c_basic"}
        got = run_series(lib, lib.run("big_run").id)
    for key, (t, v) in reference["series"].items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v, equal_nan=True), key
    with Library(db) as lib:
        assert snapshot(lib.conn)["runs"][: len(before["runs"])] == before["runs"]


def test_new_library_created_by_two_processes_at_once(tmp_path: Path) -> None:
    """A second benchlens opening a brand-new library while the first is creating its tables waits
    and finds them made (it used to try to create them again: 'table runs already exists')."""
    path = tmp_path / "new.sqlite"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("PRAGMA journal_mode = WAL")
    first.execute("BEGIN IMMEDIATE")  # the first process, about to create the schema
    result: dict[str, Any] = {}

    def second() -> None:
        try:
            with Library(path) as lib:
                result["runs"] = lib.runs()
        except BaseException as e:
            result["error"] = e

    t = threading.Thread(target=second)
    t.start()
    time.sleep(0.5)  # the second one has read version 0 and waits for the write lock
    for stmt in migrations._statements(migrations.schema_sql()):
        first.execute(stmt)
    first.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL)")
    first.execute("INSERT INTO migrations VALUES (1, 'initial schema', 0)")
    first.execute("PRAGMA user_version = 1")
    first.execute("COMMIT")
    first.close()
    t.join(timeout=HANG)
    assert "error" not in result, result.get("error")
    assert result["runs"] == []


# ---- a lock held too long -----------------------------------------------------------------------


@pytest.fixture
def short_busy_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(library_mod, "BUSY_TIMEOUT_S", 0.3)


def test_import_while_another_writer_holds_the_lock_too_long(
    db: Path, capsys: pytest.CaptureFixture[str], short_busy_timeout: None
) -> None:
    """Another connection keeps a write transaction open past the busy timeout: `benchlens import`
    says in one line that the library is busy and to try again; nothing is written."""
    before = before_of(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        line = cli_error(capsys, "import", str(RUN), "--db", str(db))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "busy" in line and "try again" in line
    assert str(db) in line
    assert before_of(db) == before
    assert main(["import", str(RUN), "--db", str(db)]) == 0  # and once the lock is free, it works


def test_new_library_while_another_holds_it_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], short_busy_timeout: None
) -> None:
    """Opening a library that another process is still creating (its write lock held past the
    timeout) is one `busy` line, not a traceback."""
    path = tmp_path / "new.sqlite"
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = WAL")
    holder.execute("BEGIN IMMEDIATE")
    try:
        line = cli_error(capsys, "runs", "--db", str(path))
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert "busy" in line


def test_busy_error_from_library_is_a_library_error(tmp_path: Path, short_busy_timeout: None) -> None:
    """The API the app uses gets a LibraryError (the import dialog shows it), not sqlite3's."""
    path = tmp_path / "lib.sqlite"
    Library(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        with Library(path) as lib, pytest.raises(LibraryError, match="busy"):
            import_path(lib, RUN)
    finally:
        holder.execute("ROLLBACK")
        holder.close()


# ---- schema upgrades: backup first; newer libraries refused --------------------------------------

CURRENT = migrations.SCHEMA_VERSION  # the version libraries are made at; the tests add one step
STEP = (CURRENT + 1, "test step", "ALTER TABLE runs ADD COLUMN test_x TEXT")


@pytest.fixture
def upgrade(monkeypatch: pytest.MonkeyPatch) -> None:
    """This benchlens has one more schema step than the library files made so far."""
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, STEP])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", CURRENT + 1)


def test_library_is_backed_up_before_an_upgrade_wal_included(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last import was committed and the process killed before the WAL was merged into the
    main file: the backup taken before the upgrade still holds that run (a copy of the main file
    alone would not), the upgraded library holds it too, with the new column."""
    db = tmp_path / "lib.sqlite"
    p = hooked("after-commit", 0, "import", str(RUN), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert Path(f"{db}-wal").stat().st_size > 0
    with Library(db) as lib:
        want = run_series(lib, lib.run("c_basic").id)
    # closing checkpointed the WAL: one more import left in the WAL only, as a killed process leaves it
    p = hooked("after-commit", 0, "import", str(FIXTURES / "runs" / "locales_C"), "--db", str(db), "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    assert Path(f"{db}-wal").stat().st_size > 0

    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, STEP])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", CURRENT + 1)
    with Library(db) as lib:
        assert lib.conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT + 1
        assert "test_x" in [r[1] for r in lib.conn.execute("PRAGMA table_info(runs)")]
        assert sorted(r.name for r in lib.runs()) == ["c_basic", "locales_C"]
    bak = migrations.backup_path(db, CURRENT)
    assert bak.exists() and not Path(f"{bak}.tmp").exists()
    assert_intact(bak)
    monkeypatch.undo()
    with Library(bak) as old:  # the backup is a version-1 library this benchlens opens as is
        assert old.conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT
        assert sorted(r.name for r in old.runs()) == ["c_basic", "locales_C"]
        got = run_series(old, old.run("c_basic").id)
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v, equal_nan=True), key


def test_failed_upgrade_leaves_the_library_as_it_was(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A step that fails (here: invalid SQL) is one clear line; the file stays at version 1 with
    its data, and the backup was made first."""
    before = before_of(db)
    monkeypatch.setattr(
        migrations,
        "MIGRATIONS",
        [*migrations.MIGRATIONS, (CURRENT + 1, "broken step", "ALTER TABLE nope ADD COLUMN x")],
    )
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", CURRENT + 1)
    line = cli_error(capsys, "runs", "--db", str(db))
    assert "cannot open the library" in line
    assert migrations.backup_path(db, CURRENT).exists()
    monkeypatch.undo()
    with Library(db) as lib:
        assert lib.conn.execute("PRAGMA user_version").fetchone()[0] == CURRENT
        assert snapshot(lib.conn) == before


def test_no_backup_when_nothing_is_upgraded(db: Path, upgrade: None) -> None:
    """Opening an up-to-date library (once upgraded) makes no further backup."""
    Library(db).close()
    bak = migrations.backup_path(db, CURRENT)
    assert bak.exists()
    bak.unlink()
    Library(db).close()
    assert not bak.exists()
    assert not list(db.parent.glob(f"*.v{CURRENT + 1}.bak"))


def test_newer_library_is_refused_by_the_cli_and_left_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchlens import` into a library written by a newer benchlens: one line saying so, exit 1,
    the file byte for byte as it was, no backup made."""
    path = tmp_path / "future.sqlite"
    Library(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {migrations.SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    data = path.read_bytes()
    line = cli_error(capsys, "import", str(RUN), "--db", str(path))
    assert "newer" in line and "upgrade benchlens" in line
    assert path.read_bytes() == data
    assert not list(tmp_path.glob("*.bak"))


# ---- SQLite errors in the middle of an import ------------------------------------------------------


@pytest.mark.parametrize("sqlite_rolled_back", [False, True], ids=["txn-open", "txn-gone"])
def test_disk_full_during_an_import_is_one_line_and_writes_nothing(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], sqlite_rolled_back: bool
) -> None:
    """SQLite fails half-way ('database or disk is full'; with SQLITE_FULL it may even have rolled
    the transaction back itself): one line naming the library, exit 1, the library as before."""
    from benchlens.app.store import writer

    before = before_of(db)
    real_flush = writer.SeriesSink._flush

    def flush(self: Any, key: Any) -> None:
        real_flush(self, key)
        if sqlite_rolled_back:
            self.conn.execute("ROLLBACK")
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(writer.SeriesSink, "_flush", flush)
    line = cli_error(capsys, "import", str(RUN), "--db", str(db))
    assert "disk is full" in line and str(db) in line
    monkeypatch.undo()
    assert before_of(db) == before
    assert_intact(db)


def test_foreign_sqlite_file_is_refused_without_being_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--db` pointing at another program's SQLite file: refused, and left byte for byte as it was
    (it used to be switched to WAL mode, a persistent change, before the refusal)."""
    path = tmp_path / "notes.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE notes (x)")
    conn.execute("INSERT INTO notes VALUES ('keep me')")
    conn.commit()
    conn.close()
    data = path.read_bytes()
    line = cli_error(capsys, "import", str(RUN), "--db", str(path))
    assert "not a benchlens library" in line
    assert path.read_bytes() == data
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    conn.close()
