"""A folder recorded by `benchlens record` around sysbench oltp_read_write on MariaDB 10.11
(tests/capture/record_mariadb.sh): every file detected, rates equal to deltas of the raw snapshots,
and the benchmark log placed without its metadata within 2 s of the true start."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES, cli_json

RUN = FIXTURES / "runs" / "recorded_mariadb_oltp"


def raw_snapshots(name: str, value: re.Pattern[str]) -> tuple[np.ndarray, np.ndarray]:
    """(marker times, first captured value after each marker) straight from the text."""
    times, values, current = [], [], None
    for line in (RUN / name).read_text().splitlines():
        if line.startswith("TS "):
            current = float(line.split()[1])
            continue
        m = value.match(line)
        if m and current is not None:
            times.append(current)
            values.append(float(m.group(1)))
            current = None
    return np.array(times), np.array(values)


def rates(t: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return t[1:], np.diff(v) / np.diff(t)


def dump(capsys: pytest.CaptureFixture[str], db: Path, source: str, metric: str, entity: str = "") -> dict:
    return cli_json(
        capsys, "dump", "run", "--source", source, "--metric", metric, "--entity", entity, "--db", str(db), "--json"
    )


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("rec") / "lib.sqlite"
    with Library(path) as lib:
        rep = import_path(lib, RUN)
        lib.rename_run(rep.id, "run")
    return path


def test_every_file_is_detected(tmp_path: Path) -> None:
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, RUN)
    # MariaDB prints no InnoDB mutex rows: that file is recognised, gives nothing and says so
    assert rep.skipped == [
        {
            "path": "innodb_mutex.log",
            "reason": "looks like innodb_mutex but no series could be read from it: "
            "no mutex rows (MariaDB prints none)",
        }
    ]
    assert {s.path: s.format for s in rep.sources} == {
        "vmstat.log": "vmstat",
        "iostat.log": "iostat",
        "mpstat.log": "mpstat",
        "bench.log": "sysbench",
        "innodb_status.log": "innodb_status",
        "global_status.log": "global_status",
        "perfschema.log": "perfschema",
        "benchlens-run.json": "config",  # its commands and tool versions: the run's settings (#14)
    }


def test_global_status_rates_are_the_raw_deltas(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t, v = raw_snapshots("global_status.log", re.compile(r"^Com_select\t(\d+)$"))
    et, ev = rates(t, v)
    got = dump(capsys, db, "global_status", "Com_select")
    assert len(got["t"]) == len(et) >= 8
    assert np.allclose(got["t"], et) and np.allclose(got["v"], ev, rtol=1e-12)


def test_perfschema_rates_are_the_raw_deltas(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    event = "wait/io/table/sql/handler"
    t, count = raw_snapshots("perfschema.log", re.compile(rf"^{re.escape(event)}\t(\d+)\t\d+$"))
    _, wait = raw_snapshots("perfschema.log", re.compile(rf"^{re.escape(event)}\t\d+\t(\d+)$"))
    et, ev = rates(t, count)
    got = dump(capsys, db, "perfschema", "COUNT_STAR", event)
    assert np.allclose(got["t"], et) and np.allclose(got["v"], ev, rtol=1e-12) and ev.max() > 0
    got = dump(capsys, db, "perfschema", "SUM_TIMER_WAIT", event)
    assert np.allclose(got["v"], rates(t, wait)[1] / 1e9, rtol=1e-12)  # picoseconds/s -> ms/s


def test_innodb_log_rate_is_the_raw_lsn_delta(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    t, lsn = raw_snapshots("innodb_status.log", re.compile(r"^Log sequence number\s+(\d+)$"))
    et, ev = rates(t, lsn)
    got = dump(capsys, db, "innodb_status", "log_bytes/s")
    assert np.allclose(got["t"], et) and np.allclose(got["v"], ev, rtol=1e-12) and ev.max() > 0


def test_without_metadata_the_log_is_placed_within_2_s_of_the_true_start(tmp_path: Path) -> None:
    meta = json.loads((RUN / "benchlens-run.json").read_text())
    folder = tmp_path / "no-metadata"
    shutil.copytree(RUN, folder)
    (folder / "benchlens-run.json").unlink()
    for p in folder.iterdir():
        os.utime(p, (0, 0))  # file times tell nothing
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder)
        bench = next(s for s in rep.sources if s.path == "bench.log")
        assert "load onset" in bench.clock
        start = lib.run(rep.id).bench_start
    assert abs(start - meta["bench_start"]) <= 2.0, (start, meta["bench_start"])
