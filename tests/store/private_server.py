"""A private MariaDB server for the tests (the way tests/capture/private_mariadb.sh starts one for
the capture scripts): mariadb-install-db into a temp folder, mariadbd on a socket there and a free
loopback port, shut down and deleted at the end of the session. A library user `bl` with a random
password reaches it over TCP with the password in an option file ($HOME/.my.cnf, [client]), as a
user of benchlens would; root (socket authentication) creates one database per test.

No server binaries: the tests that need one are skipped with the reason (`make test` installs
mariadb-server when run as root, packaging/system-deps.sh)."""

from __future__ import annotations

import getpass
import os
import secrets
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

START_TIMEOUT_S = 60
SBIN = ("/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin")
NO_SERVER = (
    "no MariaDB server binaries (mariadb-install-db, mariadbd) on this machine: "
    "`make test` as root installs mariadb-server (packaging/system-deps.sh)"
)


def _which(name: str) -> str | None:
    return shutil.which(name) or next((f"{d}/{name}" for d in SBIN if os.access(f"{d}/{name}", os.X_OK)), None)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    base: Path
    sock: str
    port: int
    password: str
    proc: subprocess.Popen[bytes]
    admin: Any
    made: int = 0

    def database(self) -> str:
        """A new empty database the library user may use."""
        self.made += 1
        name = f"bl_{self.made}"
        cur = self.admin.cursor()
        cur.execute(f"DROP DATABASE IF EXISTS {name}")
        cur.execute(f"CREATE DATABASE {name}")
        return name

    def url(self, database: str) -> str:
        return f"mysql://bl@127.0.0.1:{self.port}/{database}"

    def option_file(self, home: Path) -> Path:
        """$HOME/.my.cnf with the library user's password, as a user of benchlens keeps it."""
        home.mkdir(parents=True, exist_ok=True)
        cnf = home / ".my.cnf"
        cnf.write_text(f"[client]\npassword={self.password}\n")
        cnf.chmod(0o600)
        return cnf

    def sql(self, stmt: str) -> list[tuple[Any, ...]]:
        cur = self.admin.cursor()
        cur.execute(stmt)
        return list(cur.fetchall()) if cur.description else []


def start(base: Path) -> Server:
    install, daemon = _which("mariadb-install-db"), _which("mariadbd")
    if install is None or daemon is None:
        pytest.skip(NO_SERVER)
    try:
        import mariadb
    except ImportError:
        pytest.skip("the MariaDB driver is not installed: pip install -e '.[server]' (needs libmariadb-dev)")
    root = os.geteuid() == 0
    user = ["--user=mysql"] if root else []
    if root:
        base.chmod(0o755)
        shutil.chown(base, "mysql", "mysql")
    data, sock, port = base / "data", str(base / "mysqld.sock"), _free_port()
    made = subprocess.run(
        [install, "--no-defaults", *user, f"--datadir={data}", "--auth-root-authentication-method=socket"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if made.returncode != 0:
        raise RuntimeError(f"mariadb-install-db failed: {made.stdout[-2000:]}{made.stderr[-2000:]}")
    proc = subprocess.Popen(
        [daemon, "--no-defaults", *user, f"--datadir={data}", f"--socket={sock}", f"--port={port}",
         "--bind-address=127.0.0.1", f"--pid-file={base / 'mysqld.pid'}", f"--log-error={base / 'error.log'}",
         "--innodb-buffer-pool-size=128M", "--innodb-flush-log-at-trx-commit=2", "--max-connections=200"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + START_TIMEOUT_S
    admin = None
    while admin is None and time.monotonic() < deadline:
        try:
            admin = mariadb.connect(unix_socket=sock, user="root" if root else getpass.getuser(), autocommit=True)
        except mariadb.Error:
            if proc.poll() is not None:
                break
            time.sleep(0.3)
    if admin is None:
        proc.kill()
        raise RuntimeError(f"the private MariaDB did not start: {(base / 'error.log').read_text(errors='replace')}")
    password = secrets.token_hex(12)
    cur = admin.cursor()
    for host in ("127.0.0.1", "localhost"):
        cur.execute(f"CREATE USER 'bl'@'{host}' IDENTIFIED BY '{password}'")
        cur.execute(f"GRANT ALL ON `bl\\_%`.* TO 'bl'@'{host}'")
    return Server(base, sock, port, password, proc, admin)


def stop(server: Server) -> None:
    try:
        server.admin.cursor().execute("SHUTDOWN")
        server.proc.wait(timeout=START_TIMEOUT_S)
    except Exception:
        server.proc.kill()
        server.proc.wait()
    shutil.rmtree(server.base, ignore_errors=True)
