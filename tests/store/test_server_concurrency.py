"""Several clients of one server library at once, on the private MariaDB server: 8 `benchlens
import` processes side by side (all succeed, every run whole and right), an importer killed with
SIGKILL mid-import (the server rolls it back: nothing of it remains, and the folder imports
again), a reader (what the window does) listing and loading runs while an import writes, and
clients racing to create or upgrade the schema (done once, everyone opens it)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import benchlens.app.store.migrations as migrations
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.bad_input import orphans
from tests.conftest import FIXTURES, ROOT, TABLES, assert_same_series, run_series
from tests.store.private_server import Server
from tests.store.test_crash_safety import hooked, write_big_vmstat

RUN = FIXTURES / "runs" / "c_basic"
IMPORTERS = 8
HANG = 300  # seconds: only catches a hang, never a measure
pytestmark = pytest.mark.usefixtures("remove_big_files")


def folder(parent: Path, name: str, lines: int) -> Path:
    """A run folder: a generated vmstat capture of `lines` reports and c_basic's iostat."""
    d = parent / name
    d.mkdir(parents=True)
    write_big_vmstat(d / "vmstat.log", lines)
    shutil.copy(RUN / "iostat.log", d / "iostat.log")
    return d


def benchlens(*args: str) -> subprocess.Popen[str]:
    env = {"PATH": os.environ["PATH"], "HOME": os.environ["HOME"], "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "benchlens.app.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def counts(lib: Library) -> dict[str, int]:
    return {t: int(lib.conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]) for t in TABLES}


def test_eight_importers_at_once(server_url: str, tmp_path: Path) -> None:
    """Eight hosts import at the same moment, three of them folders of the same name: every import
    succeeds, names stay unique, and each run holds exactly what importing it alone gives."""
    names = ["nightly", "nightly", "nightly", "a", "b", "c", "d", "e"]
    dirs = [folder(tmp_path / f"host{k}", name, 30_000 + 1000 * k) for k, name in enumerate(names)]
    procs = [benchlens("import", str(d), "--db", server_url, "--tz", "UTC") for d in dirs]
    results = [p.communicate(timeout=HANG) for p in procs]
    assert [p.returncode for p in procs] == [0] * IMPORTERS, [err for _, err in results]
    with Library(server_url) as lib:
        runs = lib.runs()
        assert sorted(r.name for r in runs) == ["a", "b", "c", "d", "e", "nightly", "nightly (2)", "nightly (3)"]
        got = {r.folder: run_series(lib, r.id) for r in runs}
        assert orphans(lib) == {}
    with Library(tmp_path / "alone.sqlite") as ref:
        for d in dirs:
            rep = import_path(ref, d, Options(tz="UTC"))
            assert_same_series(got[str(d)], run_series(ref, rep.id))


@pytest.mark.parametrize(
    ("point", "arg"),
    [("parse", 4 << 20), ("writes", 100_000), ("before-commit", 0)],
    ids=["parsing", "writing", "commit"],
)
def test_importer_killed_mid_import_leaves_nothing(
    point: str, arg: float, mariadb_server: Server, server_url: str, tmp_path: Path
) -> None:
    """SIGKILL while the files are read, while series are written, just before COMMIT: the server
    rolls the dropped connection's transaction back; the library is as it was, and the folder
    imports again."""
    with Library(server_url) as lib:
        import_path(lib, FIXTURES / "runs" / "locales_C", Options(tz="UTC"))
        before, runs = counts(lib), lib.runs()
    big = folder(tmp_path, "big", 150_000)
    p = hooked(point, arg, "import", str(big), "--db", server_url, "--tz", "UTC")
    assert p.returncode == -signal.SIGKILL, p.stderr
    deadline = time.monotonic() + HANG  # the server notices the dropped connection and rolls back
    while (
        mariadb_server.sql("SELECT count(*) FROM information_schema.innodb_trx")[0][0] and time.monotonic() < deadline
    ):
        time.sleep(0.1)
    with Library(server_url) as lib:
        assert counts(lib) == before and lib.runs() == runs
        assert orphans(lib) == {}
        rep = import_path(lib, big, Options(tz="UTC"))
        assert lib.run(rep.id).name == "big" and not rep.unchanged


def test_reader_while_importing(server_url: str, tmp_path: Path) -> None:
    """The window's reads go on while another host imports: never blocked, never half a run."""
    with Library(server_url) as lib:
        first = import_path(lib, RUN, Options(tz="UTC"))
        want = run_series(lib, first.id)
    big = folder(tmp_path, "big", 300_000)
    proc = benchlens("import", str(big), "--db", server_url, "--tz", "UTC")
    reads, seen = 0, set()
    with Library(server_url) as lib:
        while proc.poll() is None:
            runs = lib.runs()
            seen.add(tuple(r.name for r in runs))
            for r in runs:
                if r.name == "big":  # once listed, the run is whole
                    assert r.sources == 2 and r.start is not None
            assert_same_series(run_series(lib, first.id), want)
            reads += 1
        _, err = proc.communicate(timeout=HANG)
        assert proc.returncode == 0, err
        assert [r.name for r in lib.runs()] == ["c_basic", "big"]  # a new connection is not needed
    assert reads >= 3 and ("c_basic",) in seen


def _open_all(url: str, n: int) -> list[Any]:
    results: list[Any] = [None] * n
    start = threading.Barrier(n)

    def one(k: int) -> None:
        start.wait()
        try:
            with Library(url) as lib:
                results[k] = [r[0] for r in lib.conn.execute("SELECT version FROM migrations ORDER BY version")]
        except BaseException as e:
            results[k] = e

    threads = [threading.Thread(target=one, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=HANG)
    return results


def test_clients_racing_to_create_the_schema(server_url: str) -> None:
    got = _open_all(server_url, 6)
    assert got == [list(range(1, migrations.SCHEMA_VERSION + 1))] * 6


def test_migration_racing_another_client(server_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A newer benchlens (one more step) opened by several clients at once: the step runs once,
    under the lock, while the others wait and then open the upgraded library; data kept."""
    with Library(server_url) as lib:
        rep = import_path(lib, RUN, Options(tz="UTC"))
        want = run_series(lib, rep.id)
    step = (migrations.SCHEMA_VERSION + 1, "test step", "ALTER TABLE runs ADD COLUMN test_x TEXT")
    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, step])
    monkeypatch.setattr(migrations, "SCHEMA_VERSION", step[0])
    got = _open_all(server_url, 6)
    assert got == [list(range(1, step[0] + 1))] * 6
    with Library(server_url) as lib:
        assert lib.conn.execute("SELECT count(test_x) FROM runs").fetchone()[0] == 0
        assert_same_series(run_series(lib, rep.id), want)
