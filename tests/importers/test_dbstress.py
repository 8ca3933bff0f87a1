"""dbSTRESS-style tabular logs: values and times equal the raw text (read here with the csv module
and plain string code), decimal commas read as decimals, step loads and restarts placed as
documented, specific detection, bad input never raises."""

from __future__ import annotations

import calendar
import csv
import shutil
from datetime import datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from benchlens.importers import dbstress, innodb_status, iostat, mpstat, sysbench, tpcc, vmstat
from benchlens.importers._types import Context, Timing
from tests import golden
from tests.conftest import FIXTURES, Series, assert_every_cut_is_a_prefix, fixture_files, head_of, parse_series

DB = FIXTURES / "dbstress"
FILES = sorted(DB.glob("*.txt"))
STATEMENTS = ("SEL1", "SEL2", "UPD", "DEL", "INS")


def parse(raw: bytes) -> tuple[Series, Context]:
    return parse_series(dbstress, raw)


def raw_table(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """Header names (units kept) and rows of a fixture read with the csv module / str.split."""
    lines = [ln for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
    header_line = next(ln for ln in lines if "tps" in ln.lower() or "tx/s" in ln)
    sep = "\t" if "\t" in header_line else ";" if ";" in header_line else "," if "," in header_line else None
    if sep is None:
        names = header_line.replace(" (ms)", "(ms)").split()
        rows = [ln.split() for ln in lines if ln != header_line]
    else:
        names = next(csv.reader([header_line], delimiter=sep))
        rows = [next(csv.reader([ln], delimiter=sep)) for ln in lines if ln != header_line]
    rows = [r for r in rows if r[0][:1].isdigit()]
    return names, [dict(zip(names, r, strict=True)) for r in rows]


def num(cell: str) -> float:
    return float(cell.replace(",", "."))


def column(names: list[str], *candidates: str) -> str:
    return next(n for n in names if n.lower() in candidates)


def statement_columns(names: list[str]) -> dict[str, str]:
    """SEL1 -> the printed column name, for statement columns."""
    out = {}
    for n in names:
        base = n.split("(")[0].split("[")[0].split("_")[0].strip()
        if base in STATEMENTS:
            out[base] = n
    return out


# ---- values and times --------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_values_equal_the_raw_text(path: Path) -> None:
    names, rows = raw_table(path)
    got, ctx = parse(path.read_bytes())
    tps_col = column(names, "tps", "tx/s")
    users_col = column(names, "users", "sessions", "threads")
    assert list(got[("tps", "")][1]) == [num(r[tps_col]) for r in rows]
    assert list(got[("thds", "")][1]) == [num(r[users_col]) for r in rows]
    in_ms = "ms" in path.read_text().split(names[0])[0] or any("ms" in n for n in names)
    for stmt, col in statement_columns(names).items():
        key = ("rt_ms", stmt) if in_ms else (col, "")
        assert list(got[key][1]) == [num(r[col]) for r in rows], stmt
    units = ctx.units
    assert units["tps"] == "1/s" and units["thds"] == "threads"
    assert units.get("rt_ms", "ms") == "ms"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_times_are_the_printed_ones(path: Path) -> None:
    names, rows = raw_table(path)
    got, ctx = parse(path.read_bytes())
    t = got[("tps", "")][0]
    meta = ctx.meta
    low = [n.lower() for n in names]
    if "timestamp" in low or "date" in low:
        if "timestamp" in low:
            stamps = [r[names[low.index("timestamp")]] for r in rows]
        else:
            stamps = [r["date"] + "T" + r["time"] for r in rows]
        want = [calendar.timegm(datetime.fromisoformat(s).timetuple()) for s in stamps]
        assert list(t) == want  # the test clock is UTC: naive local seconds = epoch
        assert meta.timing is Timing.WALL and meta.first_time == want[0]
    elif any(n in low for n in ("time", "t", "elapsed")):
        col = names[next(i for i, n in enumerate(low) if n in ("time", "t", "elapsed"))]
        printed = [num(r[col]) for r in rows]
        if "restart" not in path.name:
            assert list(t) == printed
        assert meta.timing is Timing.RELATIVE and meta.last_relative == t[-1]
    else:
        assert list(t) == [float(k) for k in range(1, len(rows) + 1)]  # row k, placed by the folder clock
        assert meta.timing is Timing.INDEX and "no timestamps" in ctx.variant
    assert np.all(np.diff(t) > 0)


def test_decimal_comma_is_a_decimal_mark() -> None:
    got, ctx = parse((DB / "dbstress_semicolon-decimal-comma_handwritten.txt").read_bytes())
    assert got[("tps", "")][1][0] == 1132.6 and got[("rt_ms", "SEL1")][1][0] == 1.36  # `1132,6`, `1,36`
    assert got[("errors", "")][1][2] == 1.0 and ctx.units["errors"] == ""
    assert "decimal comma" in ctx.variant


def test_a_cell_with_the_other_decimal_mark_is_nan_and_warned() -> None:
    got, ctx = parse(b"time;users;tps\n1;2;1,5\n2;2;1.5\n3;2;1250\n")
    assert np.array_equal(got[("tps", "")][1], [1.5, np.nan, 1250.0], equal_nan=True)
    assert [str(w) for w in ctx.warnings] == ["line 3: tps: '1.5' unreadable (the file uses ',' as decimal mark)"]


def test_columns_without_ms_keep_their_name() -> None:
    got, ctx = parse((DB / "dbstress_whitespace-restart-per-step_handwritten.txt").read_bytes())
    assert ("SEL1", "") in got and ("rt_ms", "SEL1") not in got and ctx.units["SEL1"] == ""


def test_unit_suffixes_and_a_ms_preamble() -> None:
    text = "# latency in milliseconds\nusers tps SEL1 SEL2_s commit(ms) qps\n4 100 1.5 0.002 3.5 400\n"
    got, ctx = parse(text.encode())
    assert got[("rt_ms", "SEL1")][1][0] == 1.5  # the preamble says ms
    assert got[("SEL2_s", "")][1][0] == 0.002 and ctx.units["SEL2_s"] == "s"
    assert got[("rt_ms", "commit")][1][0] == 3.5  # any column with its own ms suffix
    assert got[("qps", "")][1][0] == 400.0


# ---- steps and runs ----------------------------------------------------------------------------


def test_step_load_steps_come_from_the_users_column() -> None:
    got, ctx = parse((DB / "dbstress_tsv-step-load_handwritten.txt").read_bytes())
    meta = ctx.meta
    assert meta.user_levels == [1, 2, 4, 8, 16, 32, 64, 128, 256]
    assert meta.user_steps == [(10.0 + 30 * k, 30.0 + 30 * k) for k in range(9)]
    assert meta.rw == 1
    assert list(got[("tps", "")][0]) == [10.0 * k for k in range(1, 28)]  # times kept: they keep increasing


def test_runs_restarting_at_zero_are_placed_back_to_back() -> None:
    got, ctx = parse((DB / "dbstress_whitespace-restart-per-step_handwritten.txt").read_bytes())
    t = got[("tps", "")][0]
    assert list(t) == [5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0, 40.0, 45.0]  # each run's t=0 = last row before
    assert ctx.meta.user_steps == [(5.0, 15.0), (20.0, 30.0), (35.0, 45.0)]
    assert any("3 runs" in v for v in ctx.variant)


def test_a_run_whose_first_row_is_at_zero_goes_one_interval_later() -> None:
    got, _ = parse(b"time users tps\n0 1 10\n5 1 11\n10 1 12\n0 2 20\n5 2 21\n")
    assert list(got[("tps", "")][0]) == [0.0, 5.0, 10.0, 15.0, 20.0]


def test_absolute_times_cross_midnight() -> None:
    got, ctx = parse((DB / "dbstress_csv-timestamp-midnight_handwritten.txt").read_bytes())
    t = got[("tps", "")][0]
    assert list(np.diff(t)) == [5.0] * 5 and ctx.meta.interval == 5.0


def test_in_a_run_folder_absolute_times_go_through_the_folder_clock(tmp_path: Path) -> None:
    """In a run folder, date + time columns are local times of the folder's zone."""
    folder = tmp_path / "run"
    folder.mkdir()
    shutil.copy(DB / "dbstress_date-time-columns_handwritten.txt", folder / "injector.log")
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="+02:00"))
        assert [s.format for s in rep.sources] == ["dbstress"]
        info = next(s for s in lib.series(rep.id) if s.metric == "tps")
        t, _ = lib.load(info)
        assert t[0] == calendar.timegm((2026, 11, 22, 2, 9, 24)) - 2 * 3600  # 02:09:24 at +02:00


def test_in_a_run_folder_a_relative_log_is_placed_at_the_load_onset(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    shutil.copytree(FIXTURES / "runs" / "c_basic", folder)
    (folder / "injector.log").write_text("time users tps SEL1(ms)\n1 4 100 1.5\n2 4 101 1.6\n3 4 102 1.4\n")
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        src = next(s for s in rep.sources if s.format == "dbstress")
        assert "load onset" in src.clock
        info = next(s for s in lib.series(rep.id) if s.format == "dbstress" and s.metric == "tps")
        t, _ = lib.load(info)
        assert t[0] == lib.run(rep.id).bench_start + 1


# ---- bad input ---------------------------------------------------------------------------------


def test_garbage_lines_are_warned_with_their_line_number_and_the_rest_survives() -> None:
    path = DB / "dbstress_whitespace-time_handwritten.txt"
    lines = path.read_text().splitlines()
    bad = [*lines[:5], "%%%% garbage %%%%", lines[5][:12], "# a comment", "", *lines[5:]]
    got, ctx = parse(("\n".join(bad) + "\n").encode())
    want, _ = parse(path.read_bytes())
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v)
    assert [str(w) for w in ctx.warnings] == [
        "line 6: not a row: 3 cells, the header has 5: '%%%% garbage %%%%'",
        f"line 7: not a row: 2 cells, the header has 5: {lines[5][:12].strip()!r}",
    ]


def test_text_columns_and_epoch_timestamps_are_warned_and_not_read() -> None:
    got, ctx = parse(b"timestamp,users,tps,scenario\n1795318317,4,10.5,RW=0\n1795318327,4,11.5,RW=0\n")
    assert list(got[("tps", "")][1]) == [10.5, 11.5] and list(got[("tps", "")][0]) == [1.0, 2.0]
    assert ("scenario", "") not in got
    assert [str(w) for w in ctx.warnings] == [
        "line 2: column 'scenario' holds text ('RW=0'): ignored",
        "line 2: column 'timestamp' ('1795318317') is not YYYY-MM-DD HH:MM:SS: not read as times",
    ]


def test_a_blank_separated_timestamp_cell_spans_two_cells() -> None:
    got, _ = parse(b"timestamp users tps\n2026-11-22 02:09:24 4 10\n2026-11-22 02:09:34 4 11\n")
    assert list(got[("tps", "")][0]) == [calendar.timegm((2026, 11, 22, 2, 9, 24)) + k for k in (0, 10)]


@pytest.mark.parametrize(
    ("text", "warning"),
    [
        ("timestamp;users;tps\n22.11.2026 02:09:24;4;10\n", "is not YYYY-MM-DD HH:MM:SS"),
        ("date time users tps\n22.11.2026 02:09:24 4 10\n", "with the time column is not YYYY-MM-DD HH:MM:SS"),
        ("date users tps\n2026-11-22 4 10\n", "has no time column"),
    ],
)
def test_unreadable_time_columns_are_dropped_with_one_warning(text: str, warning: str) -> None:
    got, ctx = parse((text + text.splitlines()[1] + "\n").encode())
    assert list(got[("tps", "")][0]) == [1.0, 2.0]  # read as without time
    assert len(ctx.warnings) == 1 + ("with the time" in warning) and warning in ctx.warnings[0].text


def test_clock_times_without_a_date_are_not_read_as_times() -> None:
    got, ctx = parse(b"time users tps\n02:09:24 4 10\n02:09:34 4 11\n")
    assert list(got[("tps", "")][0]) == [1.0, 2.0]
    assert [str(w) for w in ctx.warnings] == [
        "line 2: column 'time' ('02:09:24') is not seconds since the start (clock times need a date column): "
        "not read as times"
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_truncated_anywhere_never_raises_nor_invents(path: Path) -> None:
    assert_every_cut_is_a_prefix(dbstress, path.read_bytes())


@pytest.mark.parametrize(
    "raw",
    [
        b"\n\n",
        b"\x00\x01\x02garbage\n",
        b"users tps\n",
        b"users tps\nfour hundred\n",
        b"time users tps\nx 1 2\n",
        b"date time users tps\n2026-13-45 25:61:00 1 2\n",
        b"timestamp;users;tps\n2026-11-22 02:09:24+02:00;1;2\n",
        "users\ttps\n\u00e9\t\u00e9\n".encode(),
    ],
)
def test_hostile_input_never_raises(raw: bytes) -> None:
    got, ctx = parse(raw)
    for t, _ in got.values():  # what survives is read as without time (the time cell was unreadable)
        assert list(t) == [1.0]
    assert ctx.warnings
    assert all(w.line is not None or w.text.startswith("no ") for w in ctx.warnings)


# ---- detection ---------------------------------------------------------------------------------

OTHER_IMPORTERS = (vmstat, iostat, mpstat, sysbench, innodb_status, tpcc)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sniff_claims_every_fixture_and_nobody_else_does(path: Path) -> None:
    head = head_of(path)
    assert dbstress.sniff(head) == 0.9
    for other in OTHER_IMPORTERS:
        assert other.sniff(head) < 0.5, other.name


def test_sniff_refuses_other_formats() -> None:
    others = fixture_files("vmstat", "iostat", "mpstat", "sysbench", "tpcc")
    assert len(others) > 20
    for path in others:
        assert dbstress.sniff(head_of(path)) < 0.5, path.name


@pytest.mark.parametrize(
    "text",
    [
        "time,cpu,mem\n1,2,3\n",  # generic CSV
        "time,tps,latency\n1,2,3\n",  # throughput but neither users nor statements
        "Device             tps    kB_read/s    kB_wrtn/s\nvda              12.00        0.00       48.00\n",  # iostat
        "02:09:24 PM       tps      rtps      wtps\n02:09:25 PM      3.00      0.00      3.00\n",  # sar -b
        "users tps SEL1\n",  # a header and nothing under it
        "users tps SEL1\nnot a row at all here\n",
        "[ 1s ] thds: 4 tps: 585.93 qps: 11759.59 (r/w/o: 8237.01/2350.72/1171.86) lat (ms,95%): 10.27\n",
    ],
)
def test_sniff_is_specific(text: str) -> None:
    assert dbstress.sniff(text) == 0.0


# ---- goldens -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(dbstress, path)
    assert got["series"] and not got["warnings"]
