"""A library on a real MariaDB server (tests/store/private_server.py): URLs and credentials, the
whole CLI giving what it gives on a file, `library copy` bit for bit both ways and idempotent,
the same folder imported from two machines stored once, who made a note and when, BLOB chunks
under max_allowed_packet, schema versions and migrations on the server."""

from __future__ import annotations

import getpass
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library, LibraryError
from benchlens.app.store.migrations import SCHEMA_VERSION
from benchlens.app.store.target import ServerTarget, parse_target
from tests.conftest import DEMO, FIXTURES, ROOT, cli_error, run_series, stalled_folder
from tests.store.private_server import Server
from tests.store.test_crash_safety import write_big_vmstat
from tests.store.test_store import _write as write_series

RUN = FIXTURES / "runs" / "c_basic"


# ---- URLs and credentials ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("mysql://db1.lab:3307/perf", ServerTarget("perf", "db1.lab", 3307)),
        ("mysql://alice@db1.lab/perf", ServerTarget("perf", "db1.lab", None, "alice")),
        ("mysql:///perf?socket=/run/mysqld/mysqld.sock", ServerTarget("perf", socket="/run/mysqld/mysqld.sock")),
        ("mysql://[::1]:3306/perf", ServerTarget("perf", "::1", 3306)),
    ],
)
def test_url_forms(text: str, want: ServerTarget) -> None:
    assert parse_target(text) == want
    assert parse_target(Path(text)) == want  # as the window's Path(db) folds '//' into '/'
    assert parse_target(str(want)) == want


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("mysql://alice:secret@db1/perf", "never goes in the library URL"),
        ("mysql://db1/perf/extra", "mysql://[user@]host"),
        ("mysql://db1/per f", "mysql://[user@]host"),
        ("mysql:///perf?user=x", "only URL option is ?socket"),
        ("mysql://db1:99999/perf", "out of range"),
    ],
)
def test_bad_urls_are_one_line(text: str, why: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = cli_error(capsys, "runs", "--db", text)
    assert why in line
    assert "secret" not in line


def test_password_comes_from_the_option_file(server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Library(server_url) as lib:
        assert lib.runs() == []
    monkeypatch.setenv("HOME", str(tmp_path / "no-cnf"))  # no ~/.my.cnf: access denied, with the way out
    with pytest.raises(LibraryError, match=r"cannot connect .*Access denied.*~/\.my\.cnf"):
        Library(server_url)


def test_password_from_the_environment(
    mariadb_server: Server, server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "no-cnf"))
    monkeypatch.setenv("MYSQL_PWD", mariadb_server.password)
    with Library(server_url) as lib:
        assert lib.runs() == []


def test_socket_url_and_missing_database(mariadb_server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    db, me = mariadb_server.database(), "root" if os.geteuid() == 0 else getpass.getuser()
    with Library(f"mysql://{me}@/{db}?socket={mariadb_server.sock}") as lib:  # socket authentication
        assert lib.runs() == []
    line = cli_error(capsys, "runs", "--db", f"mysql://{me}@/nosuchdb?socket={mariadb_server.sock}")
    assert "Unknown database" in line and "create it first" in line


def test_missing_driver_is_one_line(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['mariadb'] = None\n"
        "from benchlens.app.cli import main\n"
        "sys.exit(main(['runs', '--db', 'mysql://127.0.0.1:1/x']))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert p.returncode == 1
    assert p.stderr.strip().splitlines() == [
        "benchlens: a server library needs the MariaDB driver: pip install 'benchlens[server]'"
    ]


# ---- the whole CLI, file and server side by side --------------------------------------------------


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    from benchlens.app.cli import main

    capsys.readouterr()
    rc = main(list(args))
    out, err = capsys.readouterr()
    assert rc == 0, err
    return out


def test_every_command_gives_on_a_server_what_it_gives_on_a_file(
    server_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = stalled_folder(tmp_path)
    outs: dict[str, list[str]] = {}
    for db in (str(tmp_path / "lib.sqlite"), server_url):
        got = outs.setdefault(db, [])
        got.append(_cli(capsys, "import", str(folder), "--db", db, "--tz", "UTC", "--json"))
        for args in (
            ["runs", "--json"],
            ["series", "stalled", "--json"],
            ["dump", "stalled", "--source", "sysbench", "--metric", "tps", "--json"],
            ["dump", "stalled", "--source", "iostat", "--metric", "w/s", "--entity", "vda", "--csv"],
            ["drops", "stalled", "--json"],
            ["summary", "stalled", "--format", "json"],
            ["explain", "stalled", "--from", "4", "--to", "11", "--json"],
        ):
            got.append(_cli(capsys, *args, "--db", db))
        out = tmp_path / f"{len(outs)}.csv"
        _cli(capsys, "export", "--run", "stalled", "--out", str(out), "--db", db)
        got.append(out.read_text())
        shot = tmp_path / f"{len(outs)}.png"
        _cli(capsys, "screenshot", str(shot), "--run", "stalled", "--db", db)  # the window, on this library
        assert shot.stat().st_size > 10_000
    file_out, server_out = outs.values()
    assert server_out == file_out
    assert json.loads(server_out[5])  # drops found: the comparison is not of empty outputs


# ---- library copy ------------------------------------------------------------------------------


def stored_arrays(lib: Library) -> list[tuple[Any, ...]]:
    """Every stored BLOB with what names it, in an order both backends give alike."""
    rows = lib.conn.execute(
        "SELECT r.name, so.path, se.metric, se.entity, c.seq, c.scale, c.v, t.t FROM chunks c "
        "JOIN series se ON se.id = c.series_id JOIN sources so ON so.id = se.source_id "
        "JOIN runs r ON r.id = so.run_id JOIN times t ON t.id = c.times_id"
    ).fetchall()
    return sorted(tuple(bytes(x) if isinstance(x, bytes | bytearray) else x for x in r) for r in rows)


def _annotate(lib: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    run = lib.runs()[0]
    monkeypatch.setenv("BENCHLENS_USER", "alice")
    note = lib.add_annotation(run.id, run.start or 0, (run.start or 0) + 5, "checkpoint stall")
    monkeypatch.setenv("BENCHLENS_USER", "bob")
    lib.update_annotation(note, label="checkpoint stall (redo full)")
    lib.save_view("both", {"runs": [r.id for r in lib.runs()], "offsets": {str(run.id): 1.5}, "align": "run"})


@pytest.mark.parametrize("big", [False, True], ids=["demo", "large-capture"])
def test_copy_file_to_server_and_back_is_bit_for_bit(
    big: bool, server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first, back = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    with Library(first) as lib:
        if big:
            d = tmp_path / "big"
            d.mkdir()
            write_big_vmstat(d / "vmstat.log", 400_000)  # chunks of 2^18 points: several per series
            shutil.copy(RUN / "iostat.log", d / "iostat.log")
            import_path(lib, d, Options(tz="UTC"))
        else:
            for run in sorted(p for p in DEMO.iterdir() if p.is_dir()):
                import_path(lib, run, Options(tz="UTC"))
        _annotate(lib, monkeypatch)
        want, want_runs = stored_arrays(lib), lib.runs()
        want_notes = [lib.annotations(r.id) for r in want_runs]
    _cli(capsys, "library", "copy", str(first), server_url)
    err = capsys.readouterr().err
    _cli(capsys, "library", "copy", server_url, str(back))
    again = json.loads(_cli(capsys, "library", "copy", str(first), server_url, "--json"))
    assert again["copied"] == [] and len(again["present"]) == len(want_runs)  # idempotent
    for db in (server_url, str(back)):
        with Library(db) as lib:
            assert stored_arrays(lib) == want
            assert [(r.name, r.start, r.end, r.host, r.tz, r.sources) for r in lib.runs()] == [
                (r.name, r.start, r.end, r.host, r.tz, r.sources) for r in want_runs
            ]
            notes = [lib.annotations(r.id) for r in lib.runs()]
            assert [[(a.label, a.author, a.updated_by, a.created) for a in n] for n in notes] == [
                [(a.label, a.author, a.updated_by, a.created) for a in n] for n in want_notes
            ]
            view = lib.view("both")
            assert view is not None and view["runs"] == [r.id for r in lib.runs()]
    del err


def test_copy_some_runs_with_progress(server_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Library(tmp_path / "a.sqlite") as lib:
        for run in sorted(p for p in DEMO.iterdir() if p.is_dir()):
            import_path(lib, run, Options(tz="UTC"))
    capsys.readouterr()
    out = _cli(capsys, "library", "copy", str(tmp_path / "a.sqlite"), server_url, "--run", "disk-stall")
    assert out.startswith("1 runs copied, 0 already there")
    with Library(server_url) as lib:
        assert [r.name for r in lib.runs()] == ["disk-stall"]


# ---- the same folder from two machines; who and when -------------------------------------------


def test_same_folder_from_two_machines_is_stored_once(target: str, tmp_path: Path) -> None:
    """Two hosts see the same capture under different mounts: the second import is a no-op."""
    here = shutil.copytree(RUN, tmp_path / "host-a" / "nightly")
    there = shutil.copytree(RUN, tmp_path / "host-b" / "mnt" / "nightly")
    with Library(target) as lib:
        a = import_path(lib, here, Options(tz="UTC"))
        b = import_path(lib, there, Options(tz="UTC"))
        assert b.unchanged and b.id == a.id
        assert [r.name for r in lib.runs()] == ["nightly"]
        other = shutil.copytree(RUN, tmp_path / "host-c" / "nightly")
        (other / "extra.log").write_bytes((RUN / "vmstat.log").read_bytes()[:2000])
        c = import_path(lib, other, Options(tz="UTC"))
        assert not c.unchanged and c.name == "nightly (2)"  # other contents: another run


def test_notes_record_who_and_when(
    target: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with Library(target) as lib:
        run = import_path(lib, RUN, Options(tz="UTC"))
        monkeypatch.setenv("BENCHLENS_USER", "alice")
        note = lib.add_annotation(run.id, 1.0, 2.0, "stall")
        lib.add_annotation(run.id, 3.0, 4.0, "", kind="drop", state="accepted")
        monkeypatch.delenv("BENCHLENS_USER")
        lib.update_annotation(note, label="stall (fsync)")
    got = json.loads(_cli(capsys, "library", "notes", "c_basic", "--db", target, "--json"))
    assert [(n["label"], n["author"], n["updated_by"], n["state"]) for n in got] == [
        ("stall (fsync)", "alice", getpass.getuser(), ""),
        ("", "alice", "", "accepted"),
    ]
    assert got[0]["created"] > 1.7e9 and got[0]["updated"] >= got[0]["created"] and got[1]["updated"] is None
    text = _cli(capsys, "library", "notes", "c_basic", "--db", target)
    assert "stall (fsync)  (alice " in text and "drop accepted  (alice" in text


# ---- BLOBs under max_allowed_packet; schema versions -----------------------------------------------


def test_chunks_stay_under_the_server_packet(server_url: str) -> None:
    with Library(server_url) as lib:
        packet = int(lib.conn.execute("SELECT @@max_allowed_packet").fetchone()[0])
        assert lib.db.max_chunk_points is not None and lib.db.max_chunk_points * 8 < packet
        lib.db.max_chunk_points = 10_000  # as a server with a 80 kB max_allowed_packet would allow
        sid = write_series(lib, 100_000)
        sizes = [len(r[0]) for r in lib.conn.execute("SELECT v FROM chunks WHERE series_id = ?", (sid,))]
        assert sizes == [40_000] * 10  # int32 hundredths, 10,000 points a chunk
        t, v = lib.load(sid)
        want = np.arange(100_000, dtype=np.float64) + 1.7e9
        assert t.tobytes() == want.tobytes() and v.tobytes() == (want % 100).round(2).tobytes()


def test_newer_or_foreign_server_database_is_refused(mariadb_server: Server, server_url: str) -> None:
    Library(server_url).close()
    db = server_url.rsplit("/", 1)[1]
    mariadb_server.sql(f"INSERT INTO {db}.migrations VALUES ({SCHEMA_VERSION + 1}, 'future', 0)")
    with pytest.raises(LibraryError, match="newer than this benchlens"):
        Library(server_url)
    other = mariadb_server.database()
    mariadb_server.sql(f"CREATE TABLE {other}.orders (id INT)")
    with pytest.raises(LibraryError, match="not a benchlens library"):
        Library(server_url.rsplit("/", 1)[0] + "/" + other)
    assert mariadb_server.sql(f"SHOW TABLES FROM {other}") == [("orders",)]  # left alone


def test_old_server_library_is_migrated(mariadb_server: Server, server_url: str) -> None:
    """A version-1 library (as benchlens made them before migration 2) is upgraded on open, its runs kept."""
    with Library(server_url) as lib:
        import_path(lib, RUN, Options(tz="UTC"))
        before = run_series(lib, lib.runs()[0].id)
    db = server_url.rsplit("/", 1)[1]
    for stmt in (
        f"ALTER TABLE {db}.runs DROP INDEX runs_content, DROP COLUMN content",
        f"ALTER TABLE {db}.annotations DROP COLUMN author, DROP COLUMN updated, DROP COLUMN updated_by",
        f"DROP TABLE {db}.run_tags, {db}.run_summaries, {db}.trend_marks",
        f"DELETE FROM {db}.migrations WHERE version > 1",
    ):
        mariadb_server.sql(stmt)
    with Library(server_url) as lib:
        versions = [r[0] for r in lib.conn.execute("SELECT version FROM migrations ORDER BY version")]
        assert versions == list(range(1, SCHEMA_VERSION + 1))
        got = run_series(lib, lib.runs()[0].id)
        assert set(got) == set(before)
        assert all(np.array_equal(got[k][1], before[k][1], equal_nan=True) for k in before)
        assert lib.add_annotation(lib.runs()[0].id, 0, 1, "after the upgrade")


def test_window_sees_runs_another_host_imported(server_url: str, qtbot: Any) -> None:
    """The window on a server library; another host imports; View > Refresh runs (F5) lists it."""
    from benchlens.app.ui.launch import build_window

    with Library(server_url) as lib:
        import_path(lib, RUN, Options(tz="UTC"))
    window: Any = build_window(Path(server_url))  # as the CLI hands it over: a Path
    qtbot.addWidget(window)
    assert [r.name for r in window.session.runs()] == ["c_basic"]
    with Library(server_url) as other:
        import_path(other, FIXTURES / "runs" / "locales_C", Options(tz="UTC"))
    assert window.refresh_action.shortcut().toString() == "F5"
    window.refresh_action.trigger()
    assert sorted(r.name for r in window.session.runs()) == ["c_basic", "locales_C"]
    window.close()


def test_read_only_user_browses_and_cannot_import(
    mariadb_server: Server, server_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's GRANTs: SELECT alone browses a library (runs, series, the CLI); an import by that
    user is one clear line and writes nothing."""
    with Library(server_url) as lib:
        import_path(lib, RUN, Options(tz="UTC"))
        want = run_series(lib, lib.runs()[0].id)
    db = server_url.rsplit("/", 1)[1]
    mariadb_server.sql(f"CREATE USER IF NOT EXISTS 'viewer'@'127.0.0.1' IDENTIFIED BY '{mariadb_server.password}'")
    mariadb_server.sql(f"GRANT SELECT ON {db}.* TO 'viewer'@'127.0.0.1'")
    viewer = server_url.replace("mysql://bl@", "mysql://viewer@")
    with Library(viewer) as lib:
        assert [r.name for r in lib.runs()] == ["c_basic"]
        got = run_series(lib, lib.runs()[0].id)
        assert set(got) == set(want)
        with pytest.raises(LibraryError, match=r"the import was not written .*command denied"):
            import_path(lib, FIXTURES / "runs" / "locales_C", Options(tz="UTC"))
        assert [r.name for r in lib.runs()] == ["c_basic"]


def test_record_push_imports_the_finished_folder(server_url: str, tmp_path: Path) -> None:
    """`benchlens record ... --push URL` on the benchmark host: the run is in the server library."""
    folder = tmp_path / "pushed"
    code = "import sys; from benchlens.app.cli import main; sys.exit(main(sys.argv[1:]))"
    p = subprocess.run(
        [sys.executable, "-c", code, "record", str(folder), "--push", server_url, "--", "sleep", "3"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "HOME": str(Path.home()), "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode == 0, p.stderr
    assert f"pushed {folder} to {server_url}: run 1 'pushed' imported" in p.stdout
    with Library(server_url) as lib:
        (run,) = lib.runs()
        # the monitors this host has (record skips a missing one with a note: sysstat is optional)
        monitors = {"vmstat"} | ({"iostat", "mpstat"} if shutil.which("iostat", path="/usr/bin:/bin") else set())
        assert run.name == "pushed" and {s.format for s in lib.sources(run.id)} >= monitors


def test_lost_connection(mariadb_server: Server, server_url: str) -> None:
    """The server drops the connection (wait_timeout, a restart): an import on it is one clear
    line and leaves nothing; a reader (the window) reconnects on its next read, READ COMMITTED again."""
    with Library(server_url) as lib:
        import_path(lib, RUN, Options(tz="UTC"))
        txn = lib.begin_import()
        txn.upsert_run("/elsewhere", "half", None)
        mariadb_server.sql(f"KILL {lib.conn.execute('SELECT CONNECTION_ID()').fetchone()[0]}")
        with pytest.raises(LibraryError, match=r"the import was not written .*gone away"), txn:
            txn.add_source(txn.run_id or 0, "x.log", 1, 1, "vmstat")
        assert [r.name for r in lib.runs()] == ["c_basic"]
        mariadb_server.sql(f"KILL {lib.conn.execute('SELECT CONNECTION_ID()').fetchone()[0]}")
        assert [r.name for r in lib.runs()] == ["c_basic"]  # reconnected
        assert lib.conn.execute("SELECT @@tx_isolation").fetchone()[0] == "READ-COMMITTED"
