"""Schema creation and named migrations (datasette style): schema.sql is version 1; each later
change is a small named step recorded in the `migrations` table and in PRAGMA user_version. The
file is copied aside before any migration, and a library from a newer benchlens is refused."""

from __future__ import annotations

import os
import sqlite3
import time
from importlib import resources
from pathlib import Path

# (version, name, SQL): append only, never edit a released step.
MIGRATIONS: list[tuple[int, str, str]] = []
SCHEMA_VERSION = 1 + len(MIGRATIONS)


class NewerLibrary(Exception):
    pass


def schema_sql() -> str:
    return resources.files("benchlens.app.store").joinpath("schema.sql").read_text("utf-8")


def _version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _newer(version: int) -> NewerLibrary:
    return NewerLibrary(
        f"library schema version {version} is newer than this benchlens ({SCHEMA_VERSION}); "
        "upgrade benchlens to open it"
    )


def refuse_foreign(conn: sqlite3.Connection) -> None:
    """Some other program's SQLite file (tables, no schema version) is refused untouched."""
    if _version(conn) == 0 and conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
        raise NewerLibrary("not a benchlens library (unknown tables, no schema version)")


def ensure_schema(conn: sqlite3.Connection, path: Path | None) -> None:
    version = _version(conn)
    if version > SCHEMA_VERSION:
        raise _newer(version)
    if version == SCHEMA_VERSION:
        return
    refuse_foreign(conn)
    # One process creates or upgrades the file; another one opening it at the same moment waits
    # for the write lock, then finds the work done (the version is read again under the lock).
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = _version(conn)
        if version > SCHEMA_VERSION:
            raise _newer(version)
        if version == 0:
            refuse_foreign(conn)
            for stmt in _statements(schema_sql()):
                conn.execute(stmt)
            conn.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL)")
            conn.execute("INSERT INTO migrations VALUES (1, 'initial schema', ?)", (time.time(),))
            conn.execute("PRAGMA user_version = 1")
        elif version < SCHEMA_VERSION and path is not None:
            backup(path, version)
        _apply(conn, max(version, 1))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def backup_path(path: Path, version: int) -> Path:
    return path.with_name(path.name + f".v{version}.bak")


def backup(path: Path, version: int) -> Path:
    """A consistent copy of the library before it is upgraded, committed data still in the WAL
    included (a copy of the main file alone would miss it). Written aside, then renamed."""
    final = backup_path(path, version)
    tmp = final.with_name(final.name + ".tmp")
    tmp.unlink(missing_ok=True)
    src = sqlite3.connect(str(path))
    try:
        dst = sqlite3.connect(str(tmp))
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    os.replace(tmp, final)
    return final


def _apply(conn: sqlite3.Connection, version: int) -> None:
    for v, name, sql in MIGRATIONS:
        if v > version:
            for stmt in _statements(sql):
                conn.execute(stmt)
            conn.execute("INSERT INTO migrations VALUES (?, ?, ?)", (v, name, time.time()))
            conn.execute(f"PRAGMA user_version = {int(v)}")


def _statements(sql: str) -> list[str]:
    out, buf = [], ""
    for line in sql.splitlines(keepends=True):
        if line.strip().startswith("--"):
            continue
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    out.append(buf.strip())  # a last statement without its semicolon still runs
    return [s for s in out if s]
