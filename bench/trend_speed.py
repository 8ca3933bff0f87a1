"""`benchlens trend` over 10,000 runs on a server library (target <= 2 s), and on a file.

    python bench/trend_speed.py [--runs 10000] [--url mysql://...]

Starts a private MariaDB (tests/store/private_server.py) unless --url names an empty database.
Fills each library with N runs as one-run imports (the run row, two tags and its stored summary:
what an import of a nightly folder leaves), in 4 groups of comparable runs (host x threads), each
history with steps of 5-8 % and 2 % noise, then times `trend_data` (best of 3) and
`benchlens trend --json` in this process. The figures are printed, with the share spent in the
change point search."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT)]

from timing import best  # noqa: E402

from benchlens.app.analysis.changepoints import detect  # noqa: E402
from benchlens.app.cli import main as cli_main  # noqa: E402
from benchlens.app.store import Library  # noqa: E402
from benchlens.app.trend import THROUGHPUT, trend_data  # noqa: E402

GROUPS = (("lab1", 8), ("lab1", 32), ("lab2", 8), ("lab2", 32))


def fill(lib: Library, count: int) -> float:
    rng = np.random.default_rng(26)
    t0 = time.perf_counter()
    per = count // len(GROUPS)
    for g, (host, threads) in enumerate(GROUPS):
        level = 1000.0 * threads
        steps = set(rng.choice(np.arange(50, per - 50), 6, replace=False).tolist())
        for k in range(per):
            if k in steps:
                level *= 1 + rng.uniform(0.05, 0.08) * rng.choice((-1, 1))
            value = level * (1 + rng.normal(0, 0.02))
            with lib.begin_import() as txn:
                run = txn.upsert_run(f"/bench/nightly/{g}/{k}", f"{host}-t{threads}-{k:05d}", None)
                txn.finish_run(run, {"host": host, "tz": "UTC"})
                lib.conn.execute("UPDATE runs SET start = ? WHERE id = ?", (1.7e9 + k * 86400 + g, run))
                lib.put_tags(run, {"version": f"8.0.{k // 100}", "commit": f"{k:07x}"})
                stats = {"median": value, "mean": value * 0.99, "p95": value * 1.05, "p99": value * 1.08}
                facts = {"benchmark": "sysbench", "options": "test=oltp_read_write", "threads": threads, "host": host}
                lib.put_summary(run, THROUGHPUT, 100, stats, {**facts, "series": "sysbench:tps"})
                txn.commit()
    return time.perf_counter() - t0


def measure(label: str, db: str, count: int) -> None:
    with Library(db) as lib:
        filled = fill(lib, count)
        data = trend_data(lib)
        took = best(lambda: trend_data(lib), 3)
        values = [np.array([p["value"] for p in g["points"]]) for g in data["groups"]]
        search = best(lambda: [detect(v) for v in values], 3)
    changes = sum(len(g["changes"]) for g in data["groups"])

    def cli() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli_main(["trend", "--json", "--db", db]) == 0

    print(
        f"trend over {count:,} runs, {label}: trend_data {took:.2f} s (change point search {search:.2f} s), "
        f"`benchlens trend --json` {best(cli, 3):.2f} s (target <= 2 s); {len(data['groups'])} groups, "
        f"{changes} change points (24 steps made); filling took {filled:.0f} s"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10_000)
    ap.add_argument("--url", help="an empty server database (password in ~/.my.cnf); default: a private server")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="benchlens-trend-bench-") as tmp:
        server = None
        url = args.url
        if not url:
            from tests.store.private_server import start

            server = start(Path(tempfile.mkdtemp(prefix="benchlens-mariadb-")))
            os.environ["HOME"] = tmp
            server.option_file(Path(tmp))
            url = server.url(server.database())
        try:
            measure("server", url, args.runs)
            measure("file", str(Path(tmp) / "trend.sqlite"), args.runs)
        finally:
            if server is not None:
                from tests.store.private_server import stop

                stop(server)


if __name__ == "__main__":
    main()
