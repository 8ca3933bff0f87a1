"""benchlens record writes a folder that imports without guessing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchlens.app.ingest import import_path
from benchlens.app.record import RecordError, read_metadata, record
from benchlens.app.store import Library

BENCH = (
    "import time\n"
    "for k in range(1, 4):\n"
    "    time.sleep(0.2)\n"
    "    print(f'[ {k}s ] thds: 2 eps: {100 * k}.00 lat (ms,95%): 1.00', flush=True)\n"
)


def test_recorded_folder_imports_with_its_metadata(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    meta = record(folder, [sys.executable, "-c", BENCH], interval=1, settle=0.3)
    assert meta["bench_exit_code"] == 0 and meta["bench_start"] < meta["bench_end"]
    assert read_metadata((folder / "benchlens-run.json").read_text()) == meta
    assert "[ 3s ]" in (folder / "bench.log").read_text()
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder)
        bench = next(s for s in rep.sources if s.path == "bench.log")
        assert bench.format == "sysbench" and "recorded in benchlens-run.json" in bench.clock
        assert not any(s["path"] == "benchlens-run.json" for s in rep.skipped)
        run = lib.run(rep.id)
        assert (run.bench_start, run.bench_end) == (meta["bench_start"], meta["bench_end"])
        tps = next(s for s in lib.series(rep.id) if s.metric == "tps")
        t, v = lib.load(tps)
        assert list(t - meta["bench_start"]) == [1.0, 2.0, 3.0] and list(v) == [100.0, 200.0, 300.0]


def test_record_refuses_a_non_empty_folder_and_a_missing_command(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("")
    with pytest.raises(RecordError, match="not empty"):
        record(tmp_path, ["true"])
    with pytest.raises(RecordError, match="after --"):
        record(tmp_path / "new", [])
    with pytest.raises(RecordError, match="cannot run"):
        record(tmp_path / "new2", ["/nonexistent/bench"], settle=0.0)


def test_metadata_is_recognised_by_content_only() -> None:
    assert read_metadata('{"format": "benchlens-run", "version": 1}') is not None
    assert read_metadata(json.dumps({"format": "something else"})) is None
    assert read_metadata("not json") is None


def test_a_failed_benchmark_leaves_no_monitor_running(tmp_path: Path) -> None:
    import subprocess

    before = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.count("-t 1")
    with pytest.raises(RecordError):
        record(tmp_path / "failed", ["/nonexistent/bench"], settle=0.0)
    after = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout.count("-t 1")
    assert after <= before
