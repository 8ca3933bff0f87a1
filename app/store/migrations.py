"""Schema creation and named migrations (datasette style): schema.sql is version 1; each later
change is a small named step recorded in the `migrations` table (and, in a file, in PRAGMA
user_version). One schema and one list of steps serve the file and the server alike: the backend
spells each statement for its database (app/store/backend.py `ddl`). A file is copied aside before
any migration; whoever opens a library of an older version upgrades it under a lock; a library
from a newer benchlens is refused."""

from __future__ import annotations

import os
import sqlite3
import time
from importlib import resources
from pathlib import Path

from benchlens.app.store.backend import Backend

# (version, name, SQL): append only, never edit a released step. Write a step in the SQL both
# databases read (schema.sql's types; ADD COLUMN, CREATE INDEX); keyed text is VARCHAR(n).
MIGRATIONS: list[tuple[int, str, str]] = [
    (
        2,
        "who and when: run content hash, annotation authors",
        # content: sha256 of the run's name, clock and (path, sha256) of its files: the same folder
        # imported from another machine, or copied twice, is found by it (app/store/writer.py).
        # author/updated/updated_by: who made a note or a drop decision, and who changed it last.
        "ALTER TABLE runs ADD COLUMN content VARCHAR(64);\n"
        "CREATE INDEX runs_content ON runs(content);\n"
        "ALTER TABLE annotations ADD COLUMN author VARCHAR(255) NOT NULL DEFAULT '';\n"
        "ALTER TABLE annotations ADD COLUMN updated REAL;\n"
        "ALTER TABLE annotations ADD COLUMN updated_by VARCHAR(255) NOT NULL DEFAULT '';\n",
    ),
    (
        3,
        "trend: run tags, per-run summaries, known shifts and runs left out",
        # tags: `benchlens tag`, benchlens-run.json's "tags", `record --tag` (app/trend.py).
        # summaries: a run's steady-state statistics of one metric, computed at import (n = 0:
        # computed, the run has no such series), so a trend reads one row per run. `facts` (JSON)
        # holds what makes runs comparable: benchmark, threads, host, the recorded command.
        # marks: 'shift' (a known shift: the history is split there) or 'out' (left out of trend).
        "CREATE TABLE run_tags (\n"
        "    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
        "    name VARCHAR(255) NOT NULL,\n"
        "    value TEXT NOT NULL,\n"
        "    PRIMARY KEY (run_id, name)\n"
        ");\n"
        "CREATE TABLE run_summaries (\n"
        "    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
        "    metric VARCHAR(255) NOT NULL,\n"
        "    n INTEGER NOT NULL,\n"
        "    median REAL, mean REAL, p95 REAL, p99 REAL,\n"
        "    facts TEXT NOT NULL,\n"
        "    computed REAL NOT NULL,\n"
        "    PRIMARY KEY (run_id, metric)\n"
        ");\n"
        "CREATE TABLE trend_marks (\n"
        "    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,\n"
        "    kind VARCHAR(16) NOT NULL,\n"
        "    author VARCHAR(255) NOT NULL DEFAULT '',\n"
        "    created REAL NOT NULL,\n"
        "    PRIMARY KEY (run_id, kind)\n"
        ");\n",
    ),
]
SCHEMA_VERSION = 1 + len(MIGRATIONS)
_MIGRATIONS_TABLE = "CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied REAL)"


class NewerLibrary(Exception):
    pass


def schema_sql() -> str:
    return resources.files("benchlens.app.store").joinpath("schema.sql").read_text("utf-8")


def _newer(version: int) -> NewerLibrary:
    return NewerLibrary(
        f"library schema version {version} is newer than this benchlens ({SCHEMA_VERSION}); "
        "upgrade benchlens to open it"
    )


def refuse_foreign(db: Backend) -> None:
    """Some other program's database (tables, no schema version) is refused untouched."""
    if db.foreign():
        raise NewerLibrary("not a benchlens library (unknown tables, no schema version)")


def ensure_schema(db: Backend) -> None:
    version = db.version()
    if version > SCHEMA_VERSION:
        raise _newer(version)
    if version == SCHEMA_VERSION:
        return
    refuse_foreign(db)
    with db.schema_lock():
        version = db.version()  # read again under the lock: another client may have done the work
        if version > SCHEMA_VERSION:
            raise _newer(version)
        if version == 0:
            refuse_foreign(db)
            # The migrations table first: on a server, where DDL commits statement by statement,
            # a creation cut short is then still recognised as ours and finished by the next open.
            db.conn.execute(db.ddl(_MIGRATIONS_TABLE))
            for stmt in _statements(schema_sql()):
                db.conn.execute(db.ddl(stmt))
            db.conn.execute("INSERT INTO migrations VALUES (1, 'initial schema', ?)", (time.time(),))
            db.set_version(1)
        elif version < SCHEMA_VERSION and db.path is not None:
            backup(db.path, version)
        _apply(db, max(version, 1))


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


def _apply(db: Backend, version: int) -> None:
    for v, name, sql in MIGRATIONS:
        if v > version:
            for stmt in _statements(sql):
                db.conn.execute(db.ddl(stmt))
            db.conn.execute("INSERT INTO migrations VALUES (?, ?, ?)", (v, name, time.time()))
            db.set_version(v)


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
