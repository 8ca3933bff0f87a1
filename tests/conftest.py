"""What tests of several packages share: the fixture paths, parsing a fixture with a fixed clock,
comparing series, the libraries they build and the CLI run in- and out-of-process. What only one
group uses lives in that group's conftest (tests/ingest, tests/analysis, tests/ui)."""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from benchlens.app.clock import FolderClock
from benchlens.importers._read import HEAD, chunks, decode_head
from benchlens.importers._types import Block, Context

ROOT = Path(__file__).resolve().parents[1]  # the checkout
FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = ROOT.parent / "shared" / "samples"
DEMO = ROOT / "resources" / "demo"
TABLE_FORMATS = ("vmstat", "iostat", "mpstat", "sysbench", "tpcc", "dbstress", "innodb_status", "perfschema")
TABLES = ("runs", "sources", "series", "times", "chunks")  # the tables an import writes

Series = dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]  # {(metric, entity): (t, v)} of one parsed file


def fixture_files(*fmts: str) -> list[Path]:
    """The captured fixtures (`tests/fixtures/<format>/*.txt`) of these formats."""
    return [p for fmt in fmts for p in sorted((FIXTURES / fmt).glob("*.txt"))]


def sample_files(fmt: str) -> list[Path]:
    folder = SAMPLES / fmt
    return sorted(folder.iterdir()) if folder.is_dir() else []


def make_folder(tmp_path: Path, name: str, files: dict[str, bytes], mtime_ns: int | None = None) -> Path:
    """A folder `tmp_path/name` holding `files` (name -> bytes), each given `mtime_ns` if set."""
    d = tmp_path / name
    d.mkdir()
    for fn, data in files.items():
        (d / fn).write_bytes(data)
        if mtime_ns is not None:
            os.utime(d / fn, ns=(mtime_ns, mtime_ns))
    return d


# ---- parsing one file -----------------------------------------------------------------------------


def head_of(path: Path) -> str:
    """The head of a file as the format detector sees it."""
    text = decode_head(path.read_bytes()[:HEAD])
    assert text is not None
    return text


def parse_bytes(fmt: ModuleType, raw: bytes, origin: float = 0.0) -> tuple[list[Block], Context]:
    """Parse with a fixed UTC clock, independent of the machine's zone."""
    ctx = Context(FolderClock(UTC, "UTC (test)", origin=origin))
    blocks = list(fmt.parse(chunks(io.BytesIO(raw)), ctx))
    return blocks, ctx


def block_series(blocks: list[Block]) -> Series:
    """{(metric, entity): (t, v)} of parsed blocks (a later block of a series replaces an earlier one)."""
    return {(m, b.entity): (b.t, v) for b in blocks for m, v in b.values.items()}


def metric_series(blocks: list[Block]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{metric: (t, v)} of a format without entities whose every metric comes in one block."""
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for b in blocks:
        assert b.entity == ""
        for m, v in b.values.items():
            assert m not in out, f"{m}: one block per metric here"
            out[m] = (np.asarray(b.t), np.asarray(v))
    return out


def parse_series(fmt: ModuleType, raw: bytes) -> tuple[Series, Context]:
    blocks, ctx = parse_bytes(fmt, raw)
    return block_series(blocks), ctx


def assert_prefix_of(got: dict, whole: dict, where: object) -> None:
    """Every series read from a cut file is the start of the same series read from the whole file:
    nothing invented, nothing changed."""
    for key, (t, v) in got.items():
        wt, wv = whole[key]
        assert np.array_equal(t, wt[: len(t)]), (where, key)
        assert np.array_equal(v, wv[: len(v)], equal_nan=True), (where, key)


def assert_every_cut_is_a_prefix(fmt: ModuleType, raw: bytes) -> None:
    """The file cut at ~100 places: parsing never raises and every cut gives a prefix of the whole."""
    whole, _ = parse_series(fmt, raw)
    for cut in range(0, len(raw), max(1, len(raw) // 97)):
        got, _ = parse_series(fmt, raw[:cut])
        assert_prefix_of(got, whole, cut)


# ---- a run's series in the library ----------------------------------------------------------------


def run_series(lib, run_id: int) -> dict:
    """Every series of a run by (source, metric, entity), pieces of several files merged."""
    return {(s.format, s.metric, s.entity): lib.load(s) for s in lib.series(run_id)}


def assert_same_series(got: dict, want: dict) -> None:
    """Two run_series() results hold the same series, times and values (NaN gaps included)."""
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t), key
        assert np.array_equal(got[key][1], v, equal_nan=True), key


def invented(part: dict, whole: dict) -> list[str]:
    """Points of `part` (a run_series()) that are not the leading points of the same series of `whole`."""
    bad = []
    for key, (t, v) in part.items():
        if key not in whole:
            bad.append(f"{key}: not in the clean file")
            continue
        tw, vw = whole[key]
        n = len(t)
        if n > len(tw) or not (np.array_equal(t, tw[:n]) and np.array_equal(v, vw[:n], equal_nan=True)):
            bad.append(f"{key}: t={t.tolist()[-3:]} v={v.tolist()[-3:]} vs clean v={vw[:n].tolist()[-3:]}")
    return bad


def snapshot(conn: sqlite3.Connection) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables an import writes."""
    return {t: conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def stalled_folder(tmp_path: Path) -> Path:
    """The real c_basic capture plus a sysbench log whose throughput falls 70% for 5 s."""
    folder = tmp_path / "stalled"
    shutil.copytree(FIXTURES / "runs" / "c_basic", folder)
    tps = [1000.0 + (k % 3) * 10 for k in range(1, 15)]
    for k in range(5, 10):
        tps[k] = 300.0
    lines = [
        f"[ {k + 1}s ] thds: 4 tps: {v:.2f} qps: 1.00 (r/w/o: 1.00/0.00/0.00) lat (ms,95%): 1.00 err/s: 0.00 "
        "reconn/s: 0.00"
        for k, v in enumerate(tps)
    ]
    (folder / "sysbench.log").write_text("\n".join(lines) + "\n")
    return folder


# ---- the command line -----------------------------------------------------------------------------


def run_cli(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`benchlens ARGS` in a fresh interpreter with a bare environment (no display unless given)."""
    base = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "benchlens.app.cli", *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=120,
        cwd=ROOT,
    )


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    """`benchlens ARGS` in this process, expected to succeed: its stdout read as JSON."""
    from benchlens.app.cli import main

    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the CLI expecting a failure: exit 1 and exactly one `benchlens: ...` line on stderr."""
    from benchlens.app.cli import main

    capsys.readouterr()
    rc = main(list(args))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert rc == 1, err
    assert len(lines) == 1 and lines[0].startswith("benchlens: "), err
    return lines[0]


# ---- libraries ------------------------------------------------------------------------------------


@pytest.fixture
def lib(tmp_path: Path):
    from benchlens.app.store import Library

    with Library(tmp_path / "lib.sqlite") as library:
        yield library


@pytest.fixture
def populated(lib, tmp_path: Path):
    """A library holding one run already (a copy of locales_C, read as UTC)."""
    from benchlens.app.ingest import Options, import_path

    import_path(lib, shutil.copytree(FIXTURES / "runs" / "locales_C", tmp_path / "earlier"), Options(tz="UTC"))
    return lib


@pytest.fixture
def remove_big_files(tmp_path: Path) -> Iterator[None]:
    """For modules whose inputs and libraries are big (`pytestmark = pytest.mark.usefixtures(...)`):
    nothing is left behind in the temp folder."""
    yield
    shutil.rmtree(tmp_path, ignore_errors=True)


@pytest.fixture(autouse=True)
def _no_user_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the user's real library."""
    monkeypatch.setenv("BENCHLENS_DB", str(tmp_path / "default-lib.sqlite"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


# ---- the summaries' library (analysis, the `summary` command and the Summary panel) -------------

RECORDED = FIXTURES / "runs" / "recorded_mariadb_oltp"
# real sysbench step loads with interval reports (1, 2, 4 ... threads); the summary-only step load
# (one point per run) has tests of its own in tests/importers/test_sysbench.py
STEP_LOGS = sorted(p for p in (FIXTURES / "sysbench").glob("*step-load*.txt") if "summary-only" not in p.name)
MUTEX_56 = FIXTURES / "innodb_mutex" / "innodb_mutex_mysql-5.6_vertical_handwritten.txt"


@pytest.fixture(scope="session")
def summary_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One library for the summary tests: the demo runs, the recorded MariaDB run, the step-load
    logs and an InnoDB mutex capture with a restart (a gap)."""
    from benchlens.app.ingest import import_path
    from benchlens.app.store import Library

    root = tmp_path_factory.mktemp("summary")
    path = root / "lib.sqlite"
    with Library(path) as library:
        for name in ("baseline", "disk-stall"):
            import_path(library, DEMO / name)
        import_path(library, RECORDED)
        for log in STEP_LOGS:
            folder = root / log.stem
            folder.mkdir()
            shutil.copy(log, folder / "sysbench.log")
            import_path(library, folder)
        folder = root / "mutex56"
        folder.mkdir()
        shutil.copy(MUTEX_56, folder / "innodb_mutex.log")
        import_path(library, folder)
    return path


@pytest.fixture
def summary_lib(summary_db: Path):
    from benchlens.app.store import Library

    with Library(summary_db) as library:
        yield library


def rid(lib, name: str) -> int:
    return int(lib.run(name).id)


def numpy_stats(v: list[float] | np.ndarray) -> dict[str, float]:
    """The statistics as plain numpy gives them, gaps (NaN) left out."""
    a = np.asarray(v, dtype=float)
    return {
        "n": int(np.isfinite(a).sum()),
        "mean": float(np.nanmean(a)),
        "median": float(np.nanmedian(a)),
        "p95": float(np.nanpercentile(a, 95)),
        "min": float(np.nanmin(a)),
        "max": float(np.nanmax(a)),
    }


def assert_stats(got: Any, want: dict[str, float]) -> None:
    """A summary's Stats equal numpy_stats()."""
    assert got.n == want["n"]
    for k in ("mean", "median", "p95", "min", "max"):
        assert getattr(got, k) == pytest.approx(want[k], rel=1e-12, abs=1e-12), k


def stats_of(summary: Any, run_id: int, ref: Any) -> Any:
    """The Stats of one series of one run in a summary."""
    return next(s for s in summary.stats if s.ref == ref).runs[run_id]
