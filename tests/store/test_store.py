"""The library file: schema, WAL, exact value round trip, transactions, refusing newer files."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.store import Library, LibraryError
from benchlens.app.store.blobs import decode, encode
from benchlens.app.store.migrations import SCHEMA_VERSION
from benchlens.importers._types import Block


def test_new_library_is_wal_with_schema_version(tmp_path: Path) -> None:
    with Library(tmp_path / "a.sqlite") as lib:
        assert lib.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert lib.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert lib.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        names = {r[0] for r in lib.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"runs", "sources", "series", "chunks", "times", "annotations", "views", "migrations"} <= names


def test_newer_library_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    Library(path).close()
    with sqlite3.connect(path) as c:
        c.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    with pytest.raises(LibraryError, match="newer"):
        Library(path)
    assert path.read_bytes() == before


def test_foreign_sqlite_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as c:
        c.execute("CREATE TABLE notes (x)")
    with pytest.raises(LibraryError, match="not a benchlens library"):
        Library(path)


def test_garbage_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(LibraryError, match="cannot open"):
        Library(path)


@pytest.mark.parametrize(
    "values",
    [
        np.array([0.0, 99.5, 41672.34, 6666.37, -1.25, 0.01]),  # two decimals: stored as int32 hundredths
        np.array([22195224.0, 0.0, 196608.0]),  # integers too big for hundredths: int32 units
        np.array([0.1 + 0.2, np.pi, 1e300]),  # not decimal: float64
        np.array([1.0, np.nan, 3.0]),  # missing values: float64
        np.array([2.0**31, 1.0]),  # out of int32 range: float64
    ],
)
def test_values_round_trip_bit_for_bit(values: np.ndarray) -> None:
    blob, scale = encode(values)
    back = decode(blob, scale)
    assert back.tobytes() == values.astype("<f8").tobytes()


def _write(lib: Library, n: int, chunks: int = 1) -> int:
    txn = lib.begin_import()
    run = txn.upsert_run("/tmp/x", "x", None)
    src = txn.add_source(run, "f.log", 1, 1, "vmstat")
    from benchlens.app.store.writer import SeriesSink

    sink = SeriesSink(txn, src, {"us": "%"})
    per = n // chunks
    for k in range(chunks):
        t = np.arange(k * per, (k + 1) * per, dtype=np.float64) + 1.7e9
        sink.add([Block("", t, {"us": (t % 100).round(2)})])
        sink._flush(("", ("us",)))
    sink.close()
    txn.finish_source(src, "0" * 64, "", "", [], {})
    txn.finish_run(run, {})
    txn.commit()
    return lib.series(run)[0].id


def test_series_loads_as_contiguous_arrays(lib: Library) -> None:
    sid = _write(lib, 100_000, chunks=4)
    t, v = lib.load(sid)
    assert len(t) == len(v) == 100_000
    assert t.flags.c_contiguous and v.flags.c_contiguous
    assert np.all(np.diff(t) == 1.0)
    info = lib.series(lib.runs()[0].id)[0]
    assert (info.n, info.start, info.end, info.unit) == (100_000, 1.7e9, 1.7e9 + 99_999, "%")


def test_rollback_leaves_nothing(lib: Library) -> None:
    txn = lib.begin_import()
    run = txn.upsert_run("/tmp/y", "y", None)
    txn.add_source(run, "f.log", 1, 1, "vmstat")
    txn.rollback()
    for table in ("runs", "sources", "series", "chunks", "times"):
        assert lib.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0


def test_second_writer_waits_then_gets_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import benchlens.app.store.library as library

    monkeypatch.setattr(library, "BUSY_TIMEOUT_S", 0.2)
    path = tmp_path / "busy.sqlite"
    with Library(path) as a, Library(path) as b:
        txn = a.begin_import()
        started = time.monotonic()
        with pytest.raises(LibraryError, match="busy"):
            b.begin_import()
        assert time.monotonic() - started < 5
        assert b.runs() == []  # readers are never blocked (WAL)
        txn.rollback()


def test_run_lookup_by_id_or_unique_name(lib: Library) -> None:
    _write(lib, 10)
    run = lib.runs()[0]
    assert lib.run(str(run.id)).name == "x"
    assert lib.run("x").id == run.id
    with pytest.raises(LibraryError, match="no run"):
        lib.run("nope")
    lib.rename_run(run.id, "renamed")
    assert lib.run("renamed").id == run.id
    lib.delete_run(run.id)
    assert lib.runs() == []
    for table in ("sources", "series", "chunks", "times"):
        assert lib.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == 0
