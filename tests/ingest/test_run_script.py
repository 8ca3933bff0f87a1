"""An untimed capture beside the run script that started it takes its interval from the script's
command line, and says so (issue 22): `iostat -mx $REPORT $(($RUNTIME_RO/$REPORT+1)) >>
$OUTDIR/iostat.ro.$thread.res &` with `REPORT=5` in run.sysbench (huiliu/mysql.benchmark)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import Options, RunReport, import_path
from benchlens.app.interval import script_interval
from benchlens.app.store import Library
from tests.conftest import FIXTURES, run_series

RUN = FIXTURES / "runs" / "interval_run_script"
MTIME = 1795739060  # when iostat.ro.1.res was written (git keeps no mtimes)
LINE = "`$TASKSET iostat -mx $REPORT $(($RUNTIME_RO/$REPORT+1))  >> $OUTDIR/iostat.ro.$thread.res &`"


def folder(tmp_path: Path) -> Path:
    d = shutil.copytree(RUN, tmp_path / "res00")
    for p in d.iterdir():
        os.utime(p, (MTIME, MTIME))
    return d


def iostat(rep: RunReport):
    (s,) = [s for s in rep.sources if s.path == "iostat.ro.1.res"]
    return s


def test_the_run_script_gives_the_interval_and_says_so(lib: Library, tmp_path: Path) -> None:
    """Before: 'interval 1 s assumed: nothing in the folder tells it', reports 1 s apart."""
    rep = import_path(lib, folder(tmp_path), Options(tz="UTC"))
    src = iostat(rep)
    assert src.notes == [f"interval 5 s from the command line {LINE} in run.sysbench line 36 (REPORT=5, RUNTIME_RO=32)"]
    (warning,) = [w.text for w in src.warnings if "script" in w.text]
    assert warning.startswith("interval 5 s taken from the command line") and "run.sysbench line 36" in warning
    t, _ = run_series(lib, rep.id)[("iostat", "w/s", "vda")]
    assert set(np.diff(t)) == {5.0}
    why = {s["path"]: s["reason"] for s in rep.skipped}
    assert why == {"run.sysbench": "shell script: not imported; read for the intervals it gives the monitors"}


def test_a_command_printed_in_the_file_and_interval_option_beat_the_script(lib: Library, tmp_path: Path) -> None:
    d = folder(tmp_path)
    io = d / "iostat.ro.1.res"
    io.write_bytes(b"+ iostat -mx 10 7\n" + io.read_bytes())
    os.utime(io, (MTIME, MTIME))
    src = iostat(import_path(lib, d, Options(tz="UTC")))
    assert src.notes[0].startswith("interval 10 s from the command line `+ iostat -mx 10 7` printed in the file")
    (disagree,) = [w.text for w in src.warnings if "suggests" in w.text]
    assert "run.sysbench line 36" in disagree and "suggests 5 s" in disagree
    src = iostat(import_path(lib, folder(tmp_path / "again"), Options(tz="UTC", interval=2)))
    assert src.notes == ["interval 2 s from --interval"]


def test_the_script_above_the_results_folder_counts_for_the_files_it_writes_there(lib: Library, tmp_path: Path) -> None:
    """The repository's own layout: run.sysbench next to res00/, which holds iostat.ro.1.res."""
    top = tmp_path / "mysql.benchmark"
    res = folder(top)
    shutil.move(res / "run.sysbench", top / "run.sysbench")
    rep = import_path(lib, res, Options(tz="UTC"))
    assert iostat(rep).notes[0].startswith(f"interval 5 s from the command line {LINE} in ../run.sysbench line 36")
    assert rep.skipped == []


def test_a_script_above_that_writes_into_its_own_folder_says_nothing_of_this_one(lib: Library, tmp_path: Path) -> None:
    top2 = tmp_path / "other"
    res2 = folder(top2)
    (res2 / "run.sysbench").unlink()
    (top2 / "run.sh").write_text("#!/bin/sh\niostat -mx 2 10 > iostat.ro.1.res &\n")
    rep = import_path(lib, res2, Options(tz="UTC"))
    assert iostat(rep).notes == ["interval 1 s assumed: nothing in the folder tells it (use --interval)"]


# The shapes of run scripts people write, each line as in a script (a constructed sample per case)
@pytest.mark.parametrize(
    ("script", "name", "fmt", "want"),
    [
        ("vmstat 10 > vmstat.out &\n", "vmstat.out", "vmstat", 10.0),
        ("vmstat 10 > vmstat.out &\nvmstat 2 > other.out &\n", "vmstat.out", "vmstat", 10.0),  # by its file name
        ("vmstat 10 > vmstat.out &\n", "renamed.out", "vmstat", None),  # writes another file
        ("mpstat -P ALL 2 >mpstat.log &\n", "mpstat.log", "mpstat", 2.0),
        ('INTERVAL=3\niostat -x "$INTERVAL" 100 | tee io.log\n', "io.log", "iostat", 3.0),
        ("iostat -x ${INT:-7} 100 \\\n  > io.log &\n", "io.log", "iostat", 7.0),  # default, continued line
        ("iostat -x $INT 100 > io.log\n", "io.log", "iostat", None),  # unknown: 100 is the count
        ("INT=2\nINT=3\niostat -x $INT > io.log\n", "io.log", "iostat", None),  # two values: unknown
        ("INT=$(nproc)\niostat -x $INT > io.log\n", "io.log", "iostat", None),  # computed
        ("# iostat -x 5 > io.log\n", "io.log", "iostat", None),  # a comment
        ("vmstat 5 > vm.log &\n", "vm.log", "global_status", None),  # not this format's tool
    ],
)
def test_script_lines(script: str, name: str, fmt: str, want: float | None) -> None:
    evidence, _ = script_interval([("run.sh", script)], name, fmt)
    assert (evidence.seconds if evidence else None) == want


def test_scripts_that_disagree_give_no_interval_and_say_so() -> None:
    evidence, warning = script_interval([("run.sh", "vmstat 10 &\n"), ("run2.sh", "vmstat 5 &\n")], "vm.log", "vmstat")
    assert evidence is None
    assert warning == (
        "the run scripts give vmstat different intervals (10 s in run.sh line 1, 5 s in run2.sh line 1): "
        "none used for vm.log"
    )
