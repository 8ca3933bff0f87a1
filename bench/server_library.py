"""A library on a MariaDB server over loopback against the library file, on the same inputs:
`python bench/server_library.py [--lines N] [--runs N] [--url mysql://...]`.

Starts a private MariaDB (tests/store/private_server.py) unless --url names one (an empty
database; the password in ~/.my.cnf), then measures
- the drivers: one 800 kB BLOB (a 100k-point float64 chunk) read and written through
  MariaDB Connector/Python, mysqlclient and PyMySQL, whichever are installed (the choice of
  benchlens[server]);
- import speed of an `iostat -x` capture of N lines (default 500,000) into the server and into a
  file, and the ratio;
- loading one 100k-point series (best of 20) from each;
- `benchlens runs` on a library of 10,000 runs (target <= 200 ms);
- 8 `benchlens import` processes at once into the server: all succeed, total lines/s.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from import_speed import make_iostat  # noqa: E402
from timing import best  # noqa: E402

from benchlens.app.ingest import Options, import_path  # noqa: E402
from benchlens.app.store import Library  # noqa: E402
from tests.store.test_store import _write as write_series  # noqa: E402

BLOB = np.random.default_rng(1).random(100_000).tobytes()


def drivers(host: str, port: int, user: str, password: str, database: str) -> None:
    """Read and write one 800 kB BLOB through each installed driver."""
    makers: dict[str, Callable[[], Any]] = {}
    kw = {"host": host, "port": port, "user": user, "password": password, "database": database, "autocommit": True}
    with contextlib.suppress(ImportError):
        import mariadb

        makers["mariadb (Connector/Python)"] = lambda: mariadb.connect(**kw)
    with contextlib.suppress(ImportError):
        import MySQLdb

        makers["mysqlclient"] = lambda: MySQLdb.connect(**kw)
    with contextlib.suppress(ImportError):
        import pymysql

        makers["PyMySQL"] = lambda: pymysql.connect(**kw)
    print("driver                      read 800 kB BLOB   write 800 kB BLOB")
    for name, make in makers.items():
        conn = make()
        cur = conn.cursor()
        mark = "?" if name.startswith("mariadb") else "%s"
        cur.execute("CREATE TABLE IF NOT EXISTS blob_bench (id INT PRIMARY KEY, v LONGBLOB)")
        cur.execute(f"REPLACE INTO blob_bench VALUES (1, {mark})", (BLOB,))
        conn.commit()

        def read(conn: Any = conn, mark: str = mark) -> None:  # a cursor per statement, as the library reads
            c = conn.cursor()
            c.execute(f"SELECT v FROM blob_bench WHERE id = {mark}", (1,))
            assert bytes(c.fetchone()[0]) == BLOB
            c.close()

        def write(cur: Any = cur, conn: Any = conn, mark: str = mark) -> None:
            cur.execute(f"UPDATE blob_bench SET v = {mark} WHERE id = 1", (BLOB,))
            conn.commit()

        print(f"{name:27} {best(read, 50) * 1e3:10.2f} ms {best(write, 5) * 1e3:15.2f} ms")
        conn.close()


def import_speed(fresh: Callable[[], str], tmp: Path, lines: int, rounds: int) -> None:
    """Best of `rounds` imports of one capture into a new file and a new server database."""
    d = tmp / "capture"
    d.mkdir()
    make_iostat(d / "iostat.log", lines)
    n = sum(1 for _ in (d / "iostat.log").open("rb"))
    took: dict[str, float] = {}
    for k in range(rounds):
        for label, db in (("file", str(tmp / f"import{k}.sqlite")), ("server", fresh())):
            with Library(db) as lib:
                t = time.perf_counter()
                import_path(lib, d, Options(tz="UTC"))
                took[label] = min(took.get(label, 1e9), time.perf_counter() - t)
    print(
        f"import {n:,} iostat lines (best of {rounds}): file {n / took['file']:,.0f} lines/s, "
        f"server {n / took['server']:,.0f} lines/s; server/file time ratio {took['server'] / took['file']:.2f}"
    )


def load_speed(url: str, tmp: Path) -> None:
    for label, db in (("file", str(tmp / "load.sqlite")), ("server", url)):
        with Library(db) as lib:
            sid = write_series(lib, 100_000)
            took = best(lambda lib=lib, sid=sid: lib.load(sid), 20)
            print(f"load one 100k-point series from the {label}: {took * 1e3:.2f} ms")


def runs_list(url: str, tmp: Path, count: int) -> None:
    from benchlens.app.cli import main

    for label, db in (("file", str(tmp / "runs.sqlite")), ("server", url)):
        with Library(db) as lib:
            have = len(lib.runs())
            t0 = time.perf_counter()
            for k in range(have, count):
                with lib.begin_import() as txn:
                    run = txn.upsert_run(f"/bench/runs/{k}", f"run-{k:05d}", None)
                    src = txn.add_source(run, "vmstat.log", 1, 1, "vmstat")
                    txn.finish_source(src, f"{k:064x}", "", "", [], {})
                    txn.finish_run(run, {"host": "bench", "tz": "UTC"})
                    txn.commit()
            filled = time.perf_counter() - t0
            listed = best(lambda: len(lib.runs()), 5)

        def cli(db: str = db) -> None:
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["runs", "--json", "--db", db]) == 0

        print(
            f"runs list of {count:,} runs, {label}: Library.runs() {listed * 1e3:.0f} ms, "
            f"`benchlens runs --json` {best(cli, 3) * 1e3:.0f} ms (target <= 200 ms); "
            f"{count - have:,} one-run imports took {filled:.1f} s"
        )


def concurrent_imports(url: str, tmp: Path, lines: int, n: int = 8) -> None:
    dirs = []
    for k in range(n):
        d = tmp / f"host{k}" / f"nightly-{k}"
        d.mkdir(parents=True)
        make_iostat(d / "iostat.log", lines)
        dirs.append(d)
    total = n * sum(1 for _ in (dirs[0] / "iostat.log").open("rb"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    t = time.perf_counter()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "benchlens.app.cli", "import", str(d), "--db", url, "--tz", "UTC"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for d in dirs
    ]
    errors = [p.communicate()[1] for p in procs]
    wall = time.perf_counter() - t
    ok = sum(p.returncode == 0 for p in procs)
    with Library(url) as lib:
        named = {r.name for r in lib.runs()}
    stored = sum(d.name in named for d in dirs)
    print(
        f"{n} importers at once: {ok}/{n} succeeded, {stored}/{n} runs stored, {total:,} lines in {wall:.1f} s = "
        f"{total / wall:,.0f} lines/s in total"
    )
    for e in errors:
        if e.strip():
            print("  " + e.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=500_000)
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--url", help="an empty server database (password in ~/.my.cnf); default: a private server")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="benchlens-server-bench-") as tmp:
        server = None
        if args.url:
            urls = [args.url] * 4
            fresh, rounds = (lambda: args.url), 1  # one empty database: a second import would be a no-op
        else:
            from tests.store.private_server import start

            server = start(Path(tempfile.mkdtemp(prefix="benchlens-mariadb-")))
            os.environ["HOME"] = tmp
            server.option_file(Path(tmp))
            urls = [server.url(server.database()) for _ in range(4)]
            drivers("127.0.0.1", server.port, "bl", server.password, server.database())
            fresh, rounds = (lambda s=server: s.url(s.database())), 3
        try:
            import_speed(fresh, Path(tmp), args.lines, rounds)
            load_speed(urls[1], Path(tmp))
            runs_list(urls[2], Path(tmp), args.runs)
            concurrent_imports(urls[3], Path(tmp), args.lines // 8)
        finally:
            if server is not None:
                from tests.store.private_server import stop

                stop(server)


if __name__ == "__main__":
    main()
