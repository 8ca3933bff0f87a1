"""The interval of files without times is inferred from the folder's evidence, never assumed
(issue 13), and a copied file without times lands on the day its banner prints."""

from __future__ import annotations

import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import Options, RunReport, import_path
from benchlens.app.interval import Evidence, choose, command_interval, from_span
from benchlens.app.store import Library
from tests.conftest import FIXTURES, run_series

RUNS = FIXTURES / "runs"
# when tests/capture/interval_evidence.sh wrote the cmdline folder's files (git keeps no mtimes)
CMDLINE_MTIME = 1795455569


def copied(tmp_path: Path, name: str, mtime: float | None = None) -> Path:
    folder = shutil.copytree(RUNS / name, tmp_path / name)
    if mtime is not None:
        for p in folder.iterdir():
            os.utime(p, (mtime, mtime))
    return folder


def source(rep: RunReport, path: str):
    (s,) = [s for s in rep.sources if s.path == path]
    return s


def steps(lib: Library, rep: RunReport, key: tuple[str, str, str]) -> np.ndarray:
    t, _ = run_series(lib, rep.id)[key]
    return np.diff(t)


def test_a_sysbench_log_beside_iostat_without_t_gives_its_interval(lib: Library, tmp_path: Path) -> None:
    """`iostat -x 2` (no -t, 16 reports) next to a 24 s sysbench log: 2 s, not the old default 1 s."""
    rep = import_path(lib, copied(tmp_path, "interval_span_sysbench", 1795455544), Options(tz="UTC"))
    io = source(rep, "iostat.log")
    assert io.notes == ["interval 2 s from sysbench.log's 24 s over this file's 16 reports"]
    assert "interval 2 s from sysbench.log" in io.clock
    assert set(steps(lib, rep, ("iostat", "w/s", "vda"))) == {2.0}


def test_a_command_line_printed_in_the_file_wins_and_the_agreeing_evidence_is_named(
    lib: Library, tmp_path: Path
) -> None:
    """`+ iostat -mx 5 6` printed before iostat's output (set -x), vmstat -t 5 beside it."""
    rep = import_path(lib, copied(tmp_path, "interval_cmdline", CMDLINE_MTIME), Options(tz="UTC"))
    (note,) = source(rep, "iostat.log").notes
    assert note.startswith("interval 5 s from the command line `+ iostat -mx 5 6` printed in the file (agrees: ")
    assert "vmstat.log's 20 s" in note and "modification time" in note
    assert set(steps(lib, rep, ("iostat", "w/s", "vda"))) == {5.0}
    # placed from vmstat's launch, one report every 5 s: iostat's reports fall on vmstat's
    vm_t, _ = run_series(lib, rep.id)[("vmstat", "us", "")]
    io_t, _ = run_series(lib, rep.id)[("iostat", "w/s", "vda")]
    assert np.abs(io_t - vm_t).max() <= 1.0


def test_conflicting_evidence_keeps_the_strongest_and_warns_with_both_values(lib: Library, tmp_path: Path) -> None:
    """The same folder with the command line gone and iostat's mtime 25 s later than it was: the
    timed vmstat says 5 s, the modification time 10 s; the span beside it is stronger."""
    folder = copied(tmp_path, "interval_cmdline")
    io = folder / "iostat.log"
    io.write_bytes(b"".join(io.read_bytes().splitlines(keepends=True)[1:]))  # no command line
    os.utime(folder / "vmstat.log", (CMDLINE_MTIME, CMDLINE_MTIME))
    os.utime(io, (CMDLINE_MTIME + 25, CMDLINE_MTIME + 25))
    rep = import_path(lib, folder, Options(tz="UTC"))
    src = source(rep, "iostat.log")
    assert src.notes == ["interval 5 s from vmstat.log's 20 s over this file's 6 reports"]
    (warning,) = [w.text for w in src.warnings if "suggests" in w.text]
    assert "interval 5 s from vmstat.log" in warning and "suggests 10 s" in warning
    assert set(steps(lib, rep, ("iostat", "w/s", "vda"))) == {5.0}


def test_interval_option_overrides_the_evidence(lib: Library, tmp_path: Path) -> None:
    rep = import_path(lib, copied(tmp_path, "interval_cmdline", CMDLINE_MTIME), Options(tz="UTC", interval=3))
    assert source(rep, "iostat.log").notes == ["interval 3 s from --interval"]
    assert set(steps(lib, rep, ("iostat", "w/s", "vda"))) == {3.0}


def test_the_interval_recorded_in_benchlens_run_json_is_evidence(lib: Library, tmp_path: Path) -> None:
    folder = copied(tmp_path, "interval_span_sysbench", 1795455544)
    (folder / "benchlens-run.json").write_text(
        '{"format": "benchlens-run", "version": 1, "commands": {"iostat.log": "iostat -x 2 16"}}'
    )
    rep = import_path(lib, folder, Options(tz="UTC"))
    note = source(rep, "iostat.log").notes[0]
    assert note.startswith("interval 2 s from the command line `iostat -x 2 16` recorded in benchlens-run.json")


def test_a_status_loop_spaced_by_uptime_says_so(lib: Library, tmp_path: Path) -> None:
    folder = tmp_path / "loop"
    folder.mkdir()
    shutil.copy(FIXTURES / "global_status" / "global_status_mariadb-10.11.19_mysqladmin-r-i3-c5.txt", folder)
    rep = import_path(lib, folder, Options(tz="UTC"))
    (note,) = rep.sources[0].notes
    assert note.startswith("spaced by its own Uptime deltas (median 3 s")


@pytest.mark.parametrize(
    ("line", "fmt", "want"),
    [
        ("+ iostat -mx 5 6", "iostat", 5.0),
        ("$ mpstat -P 0 2 10 > mpstat.log", "mpstat", 2.0),  # -P takes a value: 0 is a CPU
        ("pidstat -p 1234 1", "pidstat", 1.0),
        ("vmstat -S M 10", "vmstat", 10.0),
        ("sar -n DEV -o sa.bin 30 4", "sar", 30.0),
        ("mysqladmin -uroot ext -r -i 2", "global_status", 2.0),
        ("mysqladmin ext --sleep=3", "global_status", 3.0),
        ("while true; do mysql -e 'SHOW GLOBAL STATUS'; sleep 2; done", "global_status", 2.0),
        ("iostat -x", "iostat", None),  # no interval: one report since boot
        ("vmstat 5", "iostat", None),  # another tool's command
    ],
)
def test_command_lines(line: str, fmt: str, want: float | None) -> None:
    got = command_interval(line, fmt)
    assert (got[0] if got else None) == want


def test_spans_round_to_common_intervals() -> None:
    assert from_span(24, 16, round_up=True) == 2.0  # a benchmark inside 32 s of monitoring
    assert from_span(20, 6, round_up=False) == 5.0
    assert from_span(48, 24, round_up=False) == 2.0
    assert from_span(10, 1, round_up=False) is None


def test_without_evidence_one_second_is_assumed_and_said() -> None:
    got = choose([])
    assert got.seconds == 1.0 and "nothing in the folder tells it" in got.note
    strong = choose([Evidence(2, "span", "a"), Evidence(5, "command", "b")])
    assert strong.seconds == 5 and "suggests 2 s" in strong.warnings[0]


# ---- B: the banner's date of a copied file without times ----------------------------------------

NO_T = sorted(p for p in (FIXTURES / "iostat").glob("iostat_12.6.1_*_x.txt"))


@pytest.mark.parametrize("path", NO_T, ids=[p.name for p in NO_T])
def test_a_copied_iostat_without_t_lands_on_its_banner_date(lib: Library, tmp_path: Path, path: Path) -> None:
    """iostat -x without -t in every locale (C, en_US, de_DE, fr_FR, ja_JP, ISO), copied a year
    later: it lands on the banner's day, not on the copy's; the warning says why."""
    folder = tmp_path / path.stem
    folder.mkdir()
    shutil.copy(path, folder / "iostat.log")
    later = datetime(2027, 12, 1, 10, 0, tzinfo=UTC).timestamp()
    os.utime(folder / "iostat.log", (later, later))
    rep = import_path(lib, folder, Options(tz="UTC"))
    banner = path.read_text().splitlines()[0].split()[3]
    run = lib.run(rep.id)
    day = datetime.fromtimestamp(run.start, UTC).strftime("%Y-%m-%d")
    assert day in ("2026-11-22", "2026-11-23")
    assert day[-2:] in banner  # 11/22/26, 22.11.2026, 2026年11月23日 ...
    assert any("the day its banner prints" in w.text for w in rep.sources[0].warnings)


def test_an_iostat_without_t_whose_mtime_agrees_with_its_banner_ends_at_the_mtime(lib: Library, tmp_path: Path) -> None:
    rep = import_path(lib, copied(tmp_path, "interval_span_sysbench", 1795455544), Options(tz="UTC"))
    last = lib.run(rep.id).end
    assert last is not None and abs(last - 1795455544) < 60
    assert not any("banner" in w.text for s in rep.sources for w in s.warnings)
