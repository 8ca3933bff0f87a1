"""What the report's tests share: a library of the real demo runs (one of them, a copy of the
baseline, named with markup in it), a run without a benchmark log, and a trend in the shape of
`benchlens trend --json` built here."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.conftest import DEMO, FIXTURES

# a run name a run folder could carry: markup that would run if the page let it through
HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">&amp;'
DEMO_RUNS = ("baseline", "disk-stall", "small-buffer-pool")


@pytest.fixture(scope="package")
def report_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("report")
    db = tmp / "lib.sqlite"
    with Library(db) as lib:
        for name in DEMO_RUNS:
            import_path(lib, DEMO / name)
        import_path(lib, shutil.copytree(DEMO / "baseline", tmp / "hostile"), Options(name=HOSTILE))
        import_path(lib, FIXTURES / "runs" / "c_basic")  # vmstat, iostat, mpstat: no benchmark log
    return db


def trend_data(names: list[str]) -> dict[str, Any]:
    """A trend of len(names) nightly runs: a 7.5 % regression at run 25, an 11.5 % improvement at
    run 33, one run without a value, one change point outside the points (ignored)."""
    values: list[float | None] = [1600.0 + (k % 5) * 8 for k in range(25)]
    values += [1480.0 + (k % 4) * 6 for k in range(8)]
    values += [1650.0 + (k % 3) * 7 for k in range(len(names) - 33)]
    values[30] = None  # a run whose value is unknown: left out, never drawn at 0
    points = [
        {"run": n, "id": k + 1, "time": 1.79e9 + k * 86400, "value": v, "tags": {"version": f"11.4.{k // 5}"}}
        for k, (n, v) in enumerate(zip(names, values, strict=True))
    ]
    changes = [
        {
            "run": names[25],
            "index": 25,
            "before": 1616.0,
            "after": 1489.0,
            "change": -0.0786,
            "p": 0.0004,
            "kind": "regression",
        },
        {
            "run": names[33],
            "index": 33,
            "before": 1489.0,
            "after": 1657.0,
            "change": 0.1128,
            "p": 0.0001,
            "kind": "improvement",
        },
        {
            "run": "gone",
            "index": len(names) + 4,
            "before": 1.0,
            "after": 2.0,
            "change": 1.0,
            "p": 0.1,
            "kind": "improvement",
        },
    ]
    key = {"benchmark": "sysbench oltp_read_write", "threads": 4, "host": "vm"}
    return {"metric": "sysbench:tps", "stat": "median", "groups": [{"key": key, "points": points, "changes": changes}]}
