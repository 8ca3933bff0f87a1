"""The seam between the library's one copy of SQL (library.py, writer.py, migrations.py, copy.py)
and the database behind it: the embedded SQLite file (here) or a MariaDB/MySQL server
(server.py). A backend owns what differs between them and nothing else:

- the connection: `conn.execute(sql, params)` returning a cursor, `executemany`, `in_transaction`
  (sqlite3's own connection; a thin wrapper over the server driver). Both take `?` parameters.
- the driver's exceptions (`Error`, `Integrity`) and which of them mean "busy, try again";
- starting a write transaction (SQLite: BEGIN IMMEDIATE, one writer at a time; server: row locks,
  writers side by side), commit and rollback;
- the schema version (SQLite: PRAGMA user_version; server: the migrations table), how the one
  schema.sql is spelled (`ddl`), and the lock a migration runs under (SQLite: the write
  transaction, DDL included; server: GET_LOCK, since its DDL commits by itself);
- the few statements whose syntax differs (the upsert of a saved view);
- how big one BLOB may be (`max_chunk_points`: the server's max_allowed_packet)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from benchlens.app.store.errors import LibraryError


class Backend:
    """What library.py, writer.py and migrations.py use of a database (see the module docstring)."""

    kind = ""
    name = ""  # the file path or the URL, for messages (never a password)
    path: Path | None = None  # the library file; None on a server
    conn: Any
    Error: type[Exception] = Exception
    Integrity: type[Exception] = Exception
    max_chunk_points: int | None = None  # None: one chunk holds whatever a flush gives it
    blob_views = False  # the driver takes a BLOB as any buffer (a memoryview), not only as bytes

    def busy(self, error: Exception) -> bool:
        raise NotImplementedError

    def begin(self) -> None:
        raise NotImplementedError

    def commit(self) -> None:
        self.conn.execute("COMMIT")

    def rollback(self) -> None:
        self.conn.execute("ROLLBACK")

    def version(self) -> int:
        raise NotImplementedError

    def set_version(self, version: int) -> None:
        raise NotImplementedError

    def foreign(self) -> bool:
        """Some other program's tables and no benchlens schema version."""
        raise NotImplementedError

    def ddl(self, stmt: str) -> str:
        """A statement of schema.sql or of a migration, as this database spells it."""
        return stmt

    @contextmanager
    def schema_lock(self) -> Iterator[None]:
        raise NotImplementedError
        yield

    def content_lock(self, key: str) -> None:
        """Taken before checking that no other run has this content, held until the import commits
        or rolls back (a server takes imports side by side; SQLite writers already take turns)."""

    def release_content_lock(self) -> None:
        pass

    def save_view(self, name: str, spec: str, updated: float) -> None:
        raise NotImplementedError

    def close(self) -> None:
        self.conn.close()


class SqliteBackend(Backend):
    kind = "sqlite"
    blob_views = True  # sqlite3 binds a buffer as a BLOB (copied into SQLite): no bytes copy first
    Error = sqlite3.Error
    Integrity = sqlite3.IntegrityError

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.name = str(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(path), timeout=busy_timeout, isolation_level=None)
            if self.foreign():  # before anything below changes the file (WAL mode is persistent)
                raise LibraryError(f"{path}: not a benchlens library (unknown tables, no schema version)")
            # Big pages suit a file made mostly of array BLOBs (no effect on an existing library).
            self.conn.execute("PRAGMA page_size = 65536")
            self.conn.execute("PRAGMA foreign_keys = ON")
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise LibraryError(f"{path}: could not switch to WAL mode (got {mode})")
            self.conn.execute("PRAGMA synchronous = NORMAL")
        except sqlite3.OperationalError as e:
            if self.busy(e):
                raise LibraryError(
                    f"{path} is busy ({e}): another benchlens held it for over {busy_timeout:g} s; "
                    "try again when it has finished"
                ) from None
            raise LibraryError(f"{path}: cannot open the library ({e})") from None
        except (sqlite3.DatabaseError, OSError) as e:
            raise LibraryError(f"{path}: cannot open the library ({e})") from None

    def busy(self, error: Exception) -> bool:
        return "locked" in str(error) or "busy" in str(error)

    def begin(self) -> None:
        self.conn.execute("BEGIN IMMEDIATE")

    def rollback(self) -> None:
        if self.conn.in_transaction:  # SQLite may have rolled back by itself (disk full, I/O error)
            self.conn.execute("ROLLBACK")

    def version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def set_version(self, version: int) -> None:
        self.conn.execute(f"PRAGMA user_version = {int(version)}")

    def foreign(self) -> bool:
        return self.version() == 0 and bool(self.conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])

    @contextmanager
    def schema_lock(self) -> Iterator[None]:
        # One process creates or upgrades the file; another one opening it at the same moment waits
        # for the write lock, then finds the work done (the version is read again under the lock).
        # SQLite's DDL is transactional: a failed step leaves the file as it was.
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            self.rollback()
            raise

    def save_view(self, name: str, spec: str, updated: float) -> None:
        self.conn.execute(
            "INSERT INTO views (name, spec, updated) VALUES (?, ?, ?) "
            "ON CONFLICT(name) DO UPDATE SET spec = excluded.spec, updated = excluded.updated",
            (name, spec, updated),
        )
