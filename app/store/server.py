"""A library on MariaDB/MySQL (`mysql://[user@]host[:port]/database`, `mysql:///database?socket=P`)
through MariaDB Connector/Python (`pip install 'benchlens[server]'`), chosen by measurement
(bench/server_library.py): it sends parameters in the binary protocol, so an 800 kB series chunk is
written in ~1 ms, where mysqlclient and PyMySQL quote it into the statement text (90-130 ms), and
it reads a chunk as fast as mysqlclient (0.5 ms; PyMySQL 0.9 ms). It takes `?` parameters like
sqlite3, so the library's statements are the same text on both backends.

Credentials never come from the URL: the user's option files (`~/.my.cnf` and the system ones,
groups [client] and [benchlens], as the mysql client reads them) and $MYSQL_PWD give them. TLS is
used whenever the server offers it.

Sessions run READ COMMITTED: a reader (the window) sees each import whole once it commits and
never waits for one; imports run side by side, each in one transaction (a killed importer's
connection drops and the server rolls its transaction back). Schema changes run under GET_LOCK,
since MariaDB's DDL commits statement by statement: on MariaDB every step is spelled to be run
again (IF NOT EXISTS) should a client die half-way through one (MySQL 8 lacks that spelling for
ADD COLUMN and CREATE INDEX; tested here on MariaDB 10.11 only)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from benchlens.app.store.backend import Backend
from benchlens.app.store.errors import LibraryError
from benchlens.app.store.target import ServerTarget

OPTION_GROUP = "benchlens"  # read with [client] from the option files
CONNECT_TIMEOUT_S = 10
PACKET_MARGIN = 64 << 10  # statement text and the other parameters next to a chunk's BLOB
_LOCK_WAIT = (1205, 1213)  # lock wait timeout, deadlock: "busy, try again"
_ACCESS_DENIED, _NO_DATABASE = 1045, 1049
MISSING_DRIVER = "a server library needs the MariaDB driver: pip install 'benchlens[server]'"


class _Conn:
    """sqlite3's connection surface over a server connection: execute() returns the cursor."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.in_transaction = False
        self.batch_bytes = 1 << 20  # set from max_allowed_packet once connected

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        cur = self.raw.cursor(buffered=True)
        cur.execute(sql, tuple(_plain(p) for p in params))
        return cur

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Rows sent in batches that fit one packet (the driver sends a batch as one)."""
        batch: list[tuple[Any, ...]] = []
        size = 0
        for r in rows:
            row = tuple(_plain(p) for p in r)
            n = sum(len(p) for p in row if isinstance(p, bytes | str)) + 8 * len(row)
            if batch and size + n > self.batch_bytes:
                self.raw.cursor().executemany(sql, batch)
                batch, size = [], 0
            batch.append(row)
            size += n
        if batch:
            self.raw.cursor().executemany(sql, batch)

    def close(self) -> None:
        self.raw.close()


def _plain(x: Any) -> Any:
    return x.item() if isinstance(x, np.generic) else x


class ServerBackend(Backend):
    kind = "mysql"

    def __init__(self, target: ServerTarget, busy_timeout: float) -> None:
        try:
            import mariadb
        except ImportError:
            raise LibraryError(MISSING_DRIVER) from None
        self.Error = mariadb.Error
        self.Integrity = mariadb.IntegrityError
        self.target = target
        self.name = str(target)
        self.busy_timeout = busy_timeout
        self._locks: list[str] = []
        try:
            raw = mariadb.connect(**connect_args(target))
        except mariadb.Error as e:
            raise LibraryError(f"{self.name}: cannot connect ({e}){_hint(e)}") from None
        self.conn = _Conn(raw)
        self.conn.execute("SET SESSION innodb_lock_wait_timeout = ?", (max(1, round(busy_timeout)),))
        packet = int(self.conn.execute("SELECT @@max_allowed_packet").fetchone()[0])
        self.max_chunk_points = max(1024, (packet - PACKET_MARGIN) // 8)
        self.conn.batch_bytes = packet - PACKET_MARGIN
        self.mariadb = "mariadb" in str(self.conn.execute("SELECT VERSION()").fetchone()[0]).lower()
        found = {
            r[0]
            for r in self.conn.execute(
                "SELECT collation_name FROM information_schema.collations "
                "WHERE collation_name IN ('utf8mb4_nopad_bin', 'utf8mb4_0900_bin')"
            )
        }
        # Names compare byte for byte, trailing spaces included, as in SQLite (a PAD SPACE
        # collation would make 'run' and 'run ' the same name).
        self.collation = next((c for c in ("utf8mb4_nopad_bin", "utf8mb4_0900_bin") if c in found), "utf8mb4_bin")

    def busy(self, error: Exception) -> bool:
        return getattr(error, "errno", None) in _LOCK_WAIT

    def begin(self) -> None:
        self.conn.execute("START TRANSACTION")
        self.conn.in_transaction = True

    def commit(self) -> None:
        self.conn.execute("COMMIT")
        self.conn.in_transaction = False

    def rollback(self) -> None:
        self.conn.in_transaction = False
        with contextlib.suppress(self.Error):  # the connection is gone: the server rolled back already
            self.conn.execute("ROLLBACK")

    def version(self) -> int:
        if not self._has_table("migrations"):
            return 0
        return int(self.conn.execute("SELECT COALESCE(MAX(version), 0) FROM migrations").fetchone()[0])

    def set_version(self, version: int) -> None:
        pass  # the migrations table is the version

    def foreign(self) -> bool:
        tables = self.conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE()"
        ).fetchone()[0]
        return bool(tables) and not self._has_table("migrations")

    def _has_table(self, name: str) -> bool:
        row = self.conn.execute(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?",
            (name,),
        ).fetchone()
        return bool(row[0])

    def ddl(self, stmt: str) -> str:
        """schema.sql's SQLite spelling as MariaDB/MySQL's; every statement safe to run twice."""
        s = re.sub(r"--[^\n]*", "", stmt).strip().rstrip(";").strip()
        s = re.sub(r"\bINTEGER PRIMARY KEY\b", "BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY", s)
        s = re.sub(r"\bINTEGER\b", "BIGINT", s)
        s = re.sub(r"\bREAL\b", "DOUBLE", s)
        s = re.sub(r"\bBLOB\b", "LONGBLOB", s)
        # a default on a TEXT column is an expression for MySQL 8 (MariaDB takes both)
        s = re.sub(r"\bTEXT(\s+NOT NULL)?\s+DEFAULT\s+('(?:[^']|'')*')", r"MEDIUMTEXT\1 DEFAULT (\2)", s)
        s = re.sub(r"\bTEXT\b", "MEDIUMTEXT", s)
        s = re.sub(r"^CREATE TABLE (\w+)", r"CREATE TABLE IF NOT EXISTS \1", s)
        if self.mariadb:  # MySQL has no IF NOT EXISTS here: a step cut short there needs a hand
            s = re.sub(r"^CREATE (UNIQUE )?INDEX (\w+)", r"CREATE \1INDEX IF NOT EXISTS \2", s)
            s = re.sub(r"\bADD COLUMN (\w+)", r"ADD COLUMN IF NOT EXISTS \1", s)
        if s.startswith("CREATE TABLE"):
            s += f" ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE={self.collation}"
        return s

    def _lock(self, what: str) -> str:
        """A server-wide named lock for this database (GET_LOCK names are at most 64 characters)."""
        name = "benchlens." + hashlib.sha256(f"{self.target.database}/{what}".encode()).hexdigest()[:40]
        got = self.conn.execute("SELECT GET_LOCK(?, ?)", (name, self.busy_timeout)).fetchone()[0]
        if got != 1:
            raise LibraryError(
                f"{self.name} is busy: another benchlens held its {what.split('/')[0]} lock for over "
                f"{self.busy_timeout:g} s; try again when it has finished"
            )
        return name

    def _unlock(self, name: str) -> None:
        self.conn.execute("SELECT RELEASE_LOCK(?)", (name,))

    @contextlib.contextmanager
    def schema_lock(self) -> Iterator[None]:
        name = self._lock("schema")
        try:
            yield
        finally:
            self._unlock(name)

    def content_lock(self, key: str) -> None:
        self._locks.append(self._lock(f"content/{key}"))

    def release_content_lock(self) -> None:
        while self._locks:
            name = self._locks.pop()
            with contextlib.suppress(self.Error):  # a lock dies with its connection
                self._unlock(name)

    def save_view(self, name: str, spec: str, updated: float) -> None:
        self.conn.execute(
            "INSERT INTO views (name, spec, updated) VALUES (?, ?, ?) "
            "ON DUPLICATE KEY UPDATE spec = VALUES(spec), updated = VALUES(updated)",
            (name, spec, updated),
        )

    def close(self) -> None:
        with contextlib.suppress(Exception):  # the server may be gone already
            self.conn.close()


def connect_args(target: ServerTarget) -> dict[str, Any]:
    """Connector/Python's arguments: the URL's parts, the option files' [client] and [benchlens]
    groups for the rest (password, TLS files ...), $MYSQL_PWD if set; TLS when the server offers it."""
    args: dict[str, Any] = {
        "database": target.database,
        "default_group": OPTION_GROUP,
        "connect_timeout": CONNECT_TIMEOUT_S,
        "autocommit": True,
        "ssl": True,
        # Run again on a reconnect (a window left open past the server's wait_timeout reconnects on
        # its next read; an import fails at the lost connection and never goes on in a new session).
        "init_command": "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
        "reconnect": True,
    }
    if target.host:
        args["host"] = target.host
    if target.port:
        args["port"] = target.port
    if target.user:
        args["user"] = target.user
    if target.socket:
        args["unix_socket"] = target.socket
    if os.environ.get("MYSQL_PWD"):
        args["password"] = os.environ["MYSQL_PWD"]
    return args


def _hint(e: Exception) -> str:
    errno = getattr(e, "errno", None)
    if errno == _ACCESS_DENIED:
        return "; the user and password come from ~/.my.cnf ([client] or [benchlens]) or $MYSQL_PWD"
    if errno == _NO_DATABASE:
        return "; create it first (README: Team library on MariaDB/MySQL)"
    return ""
