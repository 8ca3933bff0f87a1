"""The store's tests run against both backends: `lib` is a library file and a library in a
private MariaDB server (tests/store/private_server.py), one new database per test."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.store.private_server import Server, start, stop


@pytest.fixture(scope="session")
def mariadb_server() -> Iterator[Server]:
    # Not under pytest's temp folder: that one is private to this user, and the server runs as mysql.
    server = start(Path(tempfile.mkdtemp(prefix="benchlens-mariadb-")))
    yield server
    stop(server)


@pytest.fixture
def server_url(mariadb_server: Server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new database's URL; the password is in $HOME/.my.cnf (HOME is this test's own)."""
    home = tmp_path / "home"
    mariadb_server.option_file(home)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("MYSQL_PWD", raising=False)
    return mariadb_server.url(mariadb_server.database())


@pytest.fixture(params=["file", "server"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a library lives: a file, then a server database."""
    if request.param == "file":
        return str(tmp_path / "lib.sqlite")
    return str(request.getfixturevalue("server_url"))


@pytest.fixture
def lib(target: str):  # the root conftest's `lib`, on both backends
    from benchlens.app.store import Library

    with Library(target) as library:
        yield library
