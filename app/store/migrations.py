"""Schema creation and named migrations (datasette style): schema.sql is version 1; each later
change is a small named step recorded in the `migrations` table and in PRAGMA user_version. The
file is copied aside before any migration, and a library from a newer benchlens is refused."""

from __future__ import annotations

import shutil
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
    return resources.files("app.store").joinpath("schema.sql").read_text("utf-8")


def ensure_schema(conn: sqlite3.Connection, path: Path | None) -> None:
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerLibrary(
            f"library schema version {version} is newer than this benchlens ({SCHEMA_VERSION}); "
            "upgrade benchlens to open it"
        )
    if version == SCHEMA_VERSION:
        return
    if version == 0:
        if conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            raise NewerLibrary("not a benchlens library (unknown tables, no schema version)")
        conn.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _statements(schema_sql()):
                conn.execute(stmt)
            conn.execute("CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL)")
            conn.execute("INSERT INTO migrations VALUES (1, 'initial schema', ?)", (time.time(),))
            conn.execute(f"PRAGMA user_version = {1}")
            version = 1
            _apply(conn, version)
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return
    if path is not None:
        shutil.copy2(path, path.with_name(path.name + f".v{version}.bak"))
    conn.execute("BEGIN IMMEDIATE")
    try:
        _apply(conn, version)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


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
    return [s for s in out if s]
