from __future__ import annotations

import io
import os
import subprocess
import sys
from datetime import UTC
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from benchlens.app.clock import FolderClock
from benchlens.importers._read import HEAD, chunks, decode_head
from benchlens.importers._types import Block, Context

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
TABLE_FORMATS = ("vmstat", "iostat", "mpstat", "sysbench", "tpcc", "dbstress", "innodb_status", "perfschema")


def fixture_files(fmt: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / fmt).glob("*.txt"))


def sample_files(fmt: str) -> list[Path]:
    folder = SAMPLES / fmt
    return sorted(folder.iterdir()) if folder.is_dir() else []


def run_cli(home: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`benchlens ARGS` in a fresh interpreter with a bare environment (no display unless given)."""
    base = {"PATH": "/usr/bin:/bin", "HOME": str(home)}
    return subprocess.run(
        [sys.executable, "-m", "benchlens.app.cli", *args],
        capture_output=True,
        text=True,
        env={**base, **(env or {})},
        timeout=120,
        cwd=Path(__file__).parents[1],
    )


def assert_prefix_of(got: dict, whole: dict, where: object) -> None:
    """Every series read from a cut file is the start of the same series read from the whole file:
    nothing invented, nothing changed."""
    import numpy as np

    for key, (t, v) in got.items():
        wt, wv = whole[key]
        assert np.array_equal(t, wt[: len(t)]), (where, key)
        assert np.array_equal(v, wv[: len(v)], equal_nan=True), (where, key)


def run_series(lib, run_id: int) -> dict:
    """Every series of a run by (source, metric, entity), pieces of several files merged."""
    return {(s.format, s.metric, s.entity): lib.load(s) for s in lib.series(run_id)}


def assert_same_series(got: dict, want: dict) -> None:
    """Two run_series() results hold the same series, times and values (NaN gaps included)."""
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t), key
        assert np.array_equal(got[key][1], v, equal_nan=True), key


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


def stalled_folder(tmp_path: Path) -> Path:
    """The real c_basic capture plus a sysbench log whose throughput falls 70% for 5 s."""
    import shutil

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


@pytest.fixture
def lib(tmp_path: Path):
    from benchlens.app.store import Library

    with Library(tmp_path / "lib.sqlite") as library:
        yield library


@pytest.fixture(autouse=True)
def _no_user_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test touches the user's real library."""
    monkeypatch.setenv("BENCHLENS_DB", str(tmp_path / "default-lib.sqlite"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
