"""Issue 13: a sysbench log timed relative to its start, in a folder whose only CPU source is dstat
or sar, is placed at the load onset their CPU shows (it went to the file's modification time).

This machine is never idle now (other sessions load it), so no capture made here starts idle: the
dstat and sar texts are written in their real layouts (those of tests/fixtures/dstat and
tests/fixtures/sar) from the all-CPU rows of the real `mpstat -P ALL 1` capture in
tests/fixtures/runs/c_basic, idle, then a burst of load at 02:47:19."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES
from tests.importers.test_sysbench import _write_relative_log

MPSTAT = FIXTURES / "runs" / "c_basic" / "mpstat.log"


def _rows() -> list[tuple[str, list[float]]]:
    """(HH:MM:SS, [%usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle]) of the all row."""
    rows = re.findall(r"^(\d\d:\d\d:\d\d)\s+all\s+(.*)$", MPSTAT.read_text(), re.M)
    return [(hms, [float(x) for x in rest.split()]) for hms, rest in rows]


def _dstat(folder: Path) -> None:
    """`dstat -tc 1` text: the first row is dstat's since-boot average."""
    lines = ["----system---- --total-cpu-usage--", "     time     |usr sys idl wai stl"]
    lines.append("22-11 02:47:13|  3   2  94   1   0")
    for hms, v in _rows():
        usr, sys, wai, idle, steal = v[0] + v[1], v[2] + v[4] + v[5], v[3], v[9], v[6]
        lines.append(f"22-11 {hms}|" + " ".join(f"{round(x):3d}" for x in (usr, sys, idle, wai, steal)))
    (folder / "dstat.txt").write_text("\n".join(lines) + "\n")


def _sar(folder: Path) -> None:
    """`sar -u 1` text (sysstat 12.6, C locale)."""
    lines = ["Linux 6.18.44-fc-v782 (vm) \t11/22/26 \t_x86_64_\t(2 CPU)", ""]
    lines.append("02:47:13        CPU     %user     %nice   %system   %iowait    %steal     %idle")
    for hms, v in _rows():
        cols = (v[0] + v[7], v[1], v[2] + v[4] + v[5], v[3], v[6], v[9])
        lines.append(f"{hms}        all" + "".join(f"{x:10.2f}" for x in cols))
    (folder / "sar.txt").write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize(("write", "source"), [(_dstat, "dstat 100-cpu.idl"), (_sar, "sar 100-%idle")])
def test_relative_log_is_placed_at_the_onset_of_dstat_or_sar(
    tmp_path: Path, write: Callable[[Path], None], source: str
) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    write(folder)
    _write_relative_log(folder)
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        src = next(s for s in rep.sources if s.format == "sysbench")
        assert f"load onset seen in {source}" in src.clock
        t, _ = lib.load(next(s for s in lib.series(rep.id) if s.metric == "tps"))
        fmt, metric = source.split()[0], source.split("-", 1)[1]
        idle = next(s for s in lib.series(rep.id) if s.format == fmt and s.metric == metric)
        it, iv = lib.load(idle)
        busy = 100 - iv
        first_busy = it[np.argmax(busy > busy[0] + 5)]
        assert first_busy - 1 <= t[0] - 1 <= first_busy  # t=0 falls in the first busy sample's interval
