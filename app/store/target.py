"""What `--db` and BENCHLENS_DB name: a library file, or a server library
`mysql://[user@]host[:port]/database` or `mysql:///database?socket=PATH`. A password never comes
from here (option files or the environment give it: app/store/server.py), so a URL is safe to
show in a window title, saved settings or a view."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from benchlens.app.store.errors import LibraryError

SCHEME = "mysql:"
_NETLOC = re.compile(r"^(?:(?P<user>[^@:/]+)@)?(?P<host>\[[0-9A-Fa-f:.]+\]|[^:@/\[\]]*)(?::(?P<port>\d{1,5}))?$")
_DATABASE = re.compile(r"^[A-Za-z0-9_$-]{1,64}$")


@dataclass(frozen=True)
class ServerTarget:
    database: str
    host: str | None = None
    port: int | None = None
    user: str | None = None
    socket: str | None = None

    def __str__(self) -> str:
        user = f"{self.user}@" if self.user else ""
        port = f":{self.port}" if self.port else ""
        query = f"?socket={self.socket}" if self.socket else ""
        host = f"[{self.host}]" if self.host and ":" in self.host else self.host or ""
        return f"mysql://{user}{host}{port}/{self.database}{query}"


def is_server(target: str | Path) -> bool:
    return str(target).startswith(SCHEME)


def parse_target(target: str | Path) -> Path | ServerTarget:
    """A file path, or the server URL. A URL that went through pathlib (which folds `//` into `/`)
    reads the same: `mysql:/host/db` is `mysql://host/db`, `mysql:/db?socket=P` is `mysql:///db?...`."""
    text = str(target)
    if not text.startswith(SCHEME):
        return Path(target)
    rest, _, query = text[len(SCHEME) :].partition("?")
    parts = rest.lstrip("/").rstrip("/").split("/")
    if len(parts) == 1:
        netloc, database = "", parts[0]
    elif len(parts) == 2:
        netloc, database = parts
    else:
        raise LibraryError(f"{text}: a server library is mysql://[user@]host[:port]/database")
    if ":" in netloc.split("@")[0] and "@" in netloc:
        raise LibraryError(
            "a password never goes in the library URL: put it in ~/.my.cnf ([client] or [benchlens]) "
            "or the MYSQL_PWD environment variable"
        )
    m = _NETLOC.match(netloc)
    if m is None or not _DATABASE.match(database):
        raise LibraryError(f"{text}: a server library is mysql://[user@]host[:port]/database")
    socket = _socket(text, query)
    port = int(m["port"]) if m["port"] else None
    if port is not None and not 0 < port < 65536:
        raise LibraryError(f"{text}: port {port} is out of range")
    return ServerTarget(database, m["host"].strip("[]") or None, port, m["user"], socket)


def _socket(text: str, query: str) -> str | None:
    if not query:
        return None
    key, _, value = query.partition("=")
    if key != "socket" or not value or "&" in value:
        raise LibraryError(f"{text}: the only URL option is ?socket=PATH")
    return value
