"""What bad input gets (PRODUCT.md): unknown files are skipped with a reason, partly garbage files
import their valid part with line-numbered warnings, binary / empty / truncated / huge-line /
wrong-encoding files give a clear message, never a traceback and never a half-written library,
and values are never mis-scaled. Every hostile input is built in tmp_path from the real captures
of tests/fixtures/runs/c_basic (and the locale captures)."""

from __future__ import annotations

import builtins
import codecs
import gzip
import io
import os
import re
import shutil
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import benchlens.importers.iostat
import benchlens.importers.mpstat
from benchlens.app.cli import main
from benchlens.app.ingest import FolderError, Options, RunReport, import_path
from benchlens.app.store import Library
from benchlens.app.store import writer as store_writer
from benchlens.importers._types import ImportCancelled, RawClock, SourceWarning
from tests.conftest import FIXTURES, assert_same_series, run_series

RUN = FIXTURES / "runs" / "c_basic"
FORMATS = ("iostat", "vmstat", "mpstat")
TABLES = ("runs", "sources", "series", "times", "chunks")
UTC = Options(tz="UTC")

# A line index (0-based, in the clean file) between two reports or two rows: a line inserted
# there breaks no header/value pairing, so the clean file's values must all survive.
NEUTRAL = {"iostat": 9, "vmstat": 8, "mpstat": 6}

Series = dict[tuple[str, str, str], tuple[np.ndarray, np.ndarray]]


# ---- helpers ------------------------------------------------------------------------------------


def clean(fmt: str) -> bytes:
    return (RUN / f"{fmt}.log").read_bytes()


def folder(tmp_path: Path, name: str, files: dict[str, bytes]) -> Path:
    d = tmp_path / name
    d.mkdir()
    for fn, data in files.items():
        (d / fn).write_bytes(data)
    return d


def import_one(lib: Library, tmp_path: Path, name: str, fmt: str, data: bytes) -> RunReport:
    """Import `data` as the only file (`<fmt>.log`) of a folder, read as UTC."""
    return import_path(lib, folder(tmp_path, name, {f"{fmt}.log": data}), UTC)


def series_of(lib: Library, run_id: int) -> Series:
    return run_series(lib, run_id)


def invented(part: Series, whole: Series) -> list[str]:
    """Points of `part` that are not the leading points of the same series of `whole`."""
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


def says_cut(warnings: list[SourceWarning]) -> bool:
    """Some warning tells the user the last line was cut."""
    return any("cut" in w.text.lower() for w in warnings)


def line_numbers(warnings: list[SourceWarning]) -> set[int]:
    return {w.line for w in warnings if w.line is not None}


def insert_line(data: bytes, index: int, line: bytes) -> bytes:
    lines = data.split(b"\n")
    lines.insert(index, line)
    return b"\n".join(lines)


def snapshot(lib: Library) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the tables an import writes."""
    return {t: lib.conn.execute(f"SELECT * FROM {t} ORDER BY rowid").fetchall() for t in TABLES}


def orphans(lib: Library) -> dict[str, int]:
    q = {
        "runs without sources": "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM sources)",
        "sources": "SELECT count(*) FROM sources WHERE run_id NOT IN (SELECT id FROM runs)",
        "series": "SELECT count(*) FROM series WHERE source_id NOT IN (SELECT id FROM sources)",
        "times": "SELECT count(*) FROM times WHERE source_id NOT IN (SELECT id FROM sources)",
        "chunks": "SELECT count(*) FROM chunks WHERE series_id NOT IN (SELECT id FROM series) "
        "OR times_id NOT IN (SELECT id FROM times)",
    }
    return {k: n for k, sql in q.items() if (n := lib.conn.execute(sql).fetchone()[0])}


def cli_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run the CLI expecting a failure: exit 1 and exactly one `benchlens: ...` line on stderr."""
    capsys.readouterr()
    rc = main(list(args))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert rc == 1, err
    assert len(lines) == 1 and lines[0].startswith("benchlens: "), err
    return lines[0]


@pytest.fixture
def reference(lib: Library, tmp_path: Path):
    """The series of each clean c_basic file imported alone (as UTC), by format."""
    cache: dict[str, Series] = {}

    def get(fmt: str) -> Series:
        if fmt not in cache:
            rep = import_one(lib, tmp_path, f"clean_{fmt}", fmt, clean(fmt))
            cache[fmt] = series_of(lib, rep.id)
            assert cache[fmt]
        return cache[fmt]

    return get


# ---- 1. unknown files in a folder ---------------------------------------------------------------


def test_folder_with_unknown_files_imports_the_known_ones_and_lists_the_rest(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user sees the three logs imported and every other entry listed as skipped with a reason;
    the FIFO, the socket and the device link are never opened (the import cannot hang on them)."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    (d / "my.cnf").write_text("[mysqld]\ninnodb_buffer_pool_size = 8G\nmax_connections = 500\n")
    (d / "core.bin").write_bytes(bytes(range(256)) * 64)
    (d / "empty.log").write_bytes(b"")
    (d / "logs").mkdir()
    shutil.copy(RUN / "iostat.log", d / "logs" / "iostat.log")
    os.mkfifo(d / "pipe")
    os.symlink(d / "nowhere", d / "dangling")
    os.symlink(d / "loop_b", d / "loop_a")
    os.symlink(d / "loop_a", d / "loop_b")
    os.symlink(d / "pipe", d / "link_to_pipe")
    if Path("/dev/zero").exists():
        os.symlink("/dev/zero", d / "zero")
    if len(str(d / "sock")) < 100:  # AF_UNIX path limit
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(d / "sock"))
    special = {str(d / n) for n in ("pipe", "link_to_pipe", "zero", "sock")}
    opened: list[str] = []

    def guard(real: Any) -> Any:
        def wrapper(path: Any, *a: Any, **k: Any) -> Any:
            if isinstance(path, str | os.PathLike) and os.fspath(path) in special:
                opened.append(os.fspath(path))
                raise AssertionError(f"opened {path}")
            return real(path, *a, **k)

        return wrapper

    monkeypatch.setattr(os, "open", guard(os.open))
    monkeypatch.setattr(builtins, "open", guard(builtins.open))
    monkeypatch.setattr(io, "open", guard(io.open))

    rep = import_path(lib, d)
    assert opened == []
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    skipped = {s["path"]: s["reason"] for s in rep.skipped}
    expected = {"my.cnf", "core.bin", "empty.log", "logs", "pipe", "dangling", "loop_a", "loop_b", "link_to_pipe"}
    expected |= {n for n in ("sock", "zero") if os.path.lexists(d / n)}
    assert set(skipped) == expected
    assert all(reason.strip() for reason in skipped.values())
    assert "not a known format" in skipped["my.cnf"]
    assert "binary" in skipped["core.bin"]
    assert "empty" in skipped["empty.log"]
    assert "folder" in skipped["logs"]
    for special_entry in ("pipe", "link_to_pipe", "sock", "zero"):
        if special_entry in skipped:
            assert "not a regular file" in skipped[special_entry]
    assert "cannot read" in skipped["dangling"]
    assert "cannot read" in skipped["loop_a"]

    monkeypatch.undo()
    plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"))
    assert_same_series(series_of(lib, rep.id), series_of(lib, plain.id))


def test_fifo_given_as_the_path_is_refused_without_being_opened(lib: Library, tmp_path: Path) -> None:
    """`benchlens import some.fifo` says it is not a regular file; it does not wait for a writer."""
    fifo = tmp_path / "capture.log"
    os.mkfifo(fifo)
    with pytest.raises(FolderError, match="not a regular file"):
        import_path(lib, fifo)
    assert lib.runs() == []


def test_file_matching_two_formats_is_skipped_as_ambiguous(lib: Library, tmp_path: Path) -> None:
    """vmstat and iostat output glued into one file is listed as skipped (ambiguous), never guessed."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    (d / "both.log").write_bytes(clean("vmstat") + clean("iostat"))
    rep = import_path(lib, d)
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    reasons = {s["path"]: s["reason"] for s in rep.skipped}
    assert "several formats" in reasons["both.log"]


# ---- 2. partly garbage files --------------------------------------------------------------------

GARBAGE = {
    "text": lambda fmt: b"disk full, capture restarted by cron",
    "numbers": lambda fmt: b"1 2 3",
    "latin1": lambda fmt: "Ger\xe4t nicht gefunden: caf\xe9".encode("latin-1"),
    "escape_codes": lambda fmt: b"\x1b[2J\x1b[H\x07 screen cleared",
    "short_row": lambda fmt: {
        "iostat": b"vda              1.00      2.00",
        "vmstat": b" 1  0      0",
        "mpstat": b"02:47:14     all    1.00",
    }[fmt],
}


@pytest.mark.parametrize("kind", sorted(GARBAGE))
@pytest.mark.parametrize("fmt", FORMATS)
def test_garbage_line_is_a_numbered_warning_and_the_rest_is_imported_exactly(
    lib: Library, tmp_path: Path, reference: Any, fmt: str, kind: str
) -> None:
    """A stray line gets a `line N: ...` warning pointing at it; every value of the file is the same
    as in the clean capture."""
    idx = NEUTRAL[fmt]
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(clean(fmt), idx, GARBAGE[kind](fmt)))
    assert rep.skipped == []
    warnings = rep.sources[0].warnings
    assert idx + 1 in line_numbers(warnings), warnings
    assert_same_series(series_of(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_stray_line_starting_with_a_label_colon_is_a_warning(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A message like `ERROR: disk full` mixed into the capture is reported by line number."""
    idx = NEUTRAL[fmt]
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(clean(fmt), idx, b"ERROR: disk full"))
    assert idx + 1 in line_numbers(rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(series_of(lib, rep.id), reference(fmt))


LATIN1_LABELS = {
    "iostat": (b"(vm)", "(b\xfcro-db)".encode("latin-1")),
    "vmstat": (b"-----------memory----------", "----------m\xe9moire----------".encode("latin-1")),
    "mpstat": (b"(vm)", "(b\xfcro-db)".encode("latin-1")),
}


@pytest.mark.parametrize("fmt", FORMATS)
def test_latin1_label_in_a_utf8_world_imports_the_same_values(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A capture from an ISO-8859-1 locale (host name or group label with an accented letter) is
    imported; its numbers are exactly those of the clean capture."""
    old, new = LATIN1_LABELS[fmt]
    data = clean(fmt).replace(old, new, 1)
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    rep = import_one(lib, tmp_path, "latin1", fmt, data)
    assert rep.skipped == []
    assert_same_series(series_of(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", ["iostat", "mpstat"])
def test_decimal_comma_line_inside_a_dot_file_is_a_warning_not_a_value(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A row written with decimal commas in a C-locale capture is reported by line number and not
    read (neither as a decimal nor as thousands)."""
    data = clean(fmt)
    lines = data.split(b"\n")
    row = next(line for line in lines[NEUTRAL[fmt] - 3 :] if re.search(rb"\d\.\d\d", line))
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(data, NEUTRAL[fmt], row.replace(b".", b",")))
    assert NEUTRAL[fmt] + 1 in line_numbers(rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(series_of(lib, rep.id), reference(fmt))


def test_many_garbage_lines_give_a_bounded_warning_list(lib: Library, tmp_path: Path, reference: Any) -> None:
    """Thousands of junk lines do not flood the report: the list is capped with a 'more warnings'
    note, and the values are still those of the clean file."""
    junk = b"\n".join(b"junk line %d" % k for k in range(5000))
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(clean("iostat"), NEUTRAL["iostat"], junk))
    warnings = rep.sources[0].warnings
    assert len(warnings) <= 210
    assert "more warnings not shown" in warnings[-1].text
    assert_same_series(series_of(lib, rep.id), reference("iostat"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_garbage_last_line_is_a_warning(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A short junk line at the very end of a capture (complete, with its newline) is a warning."""
    data = clean(fmt).rstrip(b"\n") + b"\n5x\n"
    rep = import_one(lib, tmp_path, "bad", fmt, data)
    n_lines = data.count(b"\n")
    assert n_lines in line_numbers(rep.sources[0].warnings)
    assert_same_series(series_of(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", ["iostat", "vmstat", "mpstat"])
def test_nul_bytes_in_a_line_near_the_start_are_a_warning(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A line of NUL bytes (left by a crash) near the top is a numbered warning, not a lost file."""
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(clean(fmt), NEUTRAL[fmt], b"\x00" * 64))
    assert rep.skipped == []
    assert NEUTRAL[fmt] + 1 in line_numbers(rep.sources[0].warnings)
    assert_same_series(series_of(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_zero_filled_tail_after_a_crash_keeps_the_reports(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """After a power loss the file often ends in a 4 KiB block of NUL bytes: the reports before it
    are imported and the user is told the end is damaged."""
    rep = import_one(lib, tmp_path, "crashed", fmt, clean(fmt) + b"\x00" * 4096)
    assert rep.skipped == []
    assert rep.sources[0].warnings != []
    assert_same_series(series_of(lib, rep.id), reference(fmt))


def long_iostat(reports: int) -> bytes:
    """c_basic's iostat.log extended to `reports` reports one second apart (over 64 KiB)."""
    text = clean("iostat").decode()
    parts = text.split("\n\n\n")
    head, body = parts[0], parts[1:-1]
    out = [head]
    for k in range(reports):
        s = 47 * 60 + 14 + k
        stamp = f"11/22/26 {2 + s // 3600:02d}:{s // 60 % 60:02d}:{s % 60:02d}"
        out.append(re.sub(r"^11/22/26 \d\d:\d\d:\d\d", stamp, body[k % len(body)]))
    return ("\n\n\n".join(out) + "\n\n\n").encode()


READ_BLOCK = 4 << 20  # benchlens.importers._read.CHUNK
BOUNDARY_LINES = {
    "timestamp": rb"11/22/26 \d\d:\d\d:\d\d",
    "avg-cpu header": rb"avg-cpu:",
    "avg-cpu values": rb" +\d",
    "Device header": rb"Device",
    "device row": rb"vda ",
    "blank": rb"\r?$",
}


@pytest.mark.parametrize(
    ("kind", "crlf"),
    [(k, False) for k in sorted(BOUNDARY_LINES)] + [("avg-cpu header", True), ("blank", True)],
    ids=lambda x: ("crlf" if x else "lf") if isinstance(x, bool) else x,
)
def test_capture_over_one_read_block_reads_across_the_boundary(
    lib: Library, tmp_path: Path, reference: Any, kind: str, crlf: bool
) -> None:
    """A 4.7 MB capture whose first 4 MiB read block ends on a given kind of line: every report on
    both sides of the boundary has the values of the report it was copied from."""
    n = 9000
    data = long_iostat(n)
    if crlf:
        data = data.replace(b"\n", b"\r\n")
    # pad the host name so that the line of this kind nearest before the boundary ends the block
    starts = [m.start() for m in re.finditer(rb"(?m)^" + BOUNDARY_LINES[kind], data[: READ_BLOCK - 1])]
    pad = READ_BLOCK - 1 - starts[-1]
    data = data.replace(b"(vm)", b"(vm" + b"x" * pad + b")", 1)
    rep = import_one(lib, tmp_path, "long", "iostat", data)
    ref = reference("iostat")
    got = series_of(lib, rep.id)
    assert set(got) == set(ref)
    for key, (_, v_ref) in ref.items():
        t, v = got[key]
        assert len(v) == n, key
        assert np.array_equal(v, np.resize(v_ref, n), equal_nan=True), key
        assert np.all(np.diff(t) == 1.0), key


def test_nul_bytes_after_the_head_are_a_warning(lib: Library, tmp_path: Path) -> None:
    """NUL bytes further down a long capture (past the sniffed head) are a numbered warning."""
    data = long_iostat(200)
    assert len(data) > 64 << 10
    ref = import_one(lib, tmp_path, "clean", "iostat", data)
    lines = data.split(b"\n")
    at = len(lines) - 40
    while lines[at].strip():
        at += 1
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(data, at, b"\x00\x00\x00 garbage \x00"))
    assert at + 1 in line_numbers(rep.sources[0].warnings)
    assert_same_series(series_of(lib, rep.id), series_of(lib, ref.id))


# ---- 3. truncated files -------------------------------------------------------------------------


def last_data_line(data: bytes) -> tuple[int, int]:
    """(start, end) byte offsets of the last line that starts a table row (digit or indented)."""
    body = data.rstrip(b"\n")
    end = len(body)
    while True:
        start = body.rfind(b"\n", 0, end) + 1
        line = body[start:end]
        if re.match(rb"\s*\d", line) and not line.startswith(b"Average"):
            return start, end
        end = start - 1


@pytest.mark.parametrize(
    "fmt",
    FORMATS,
)
def test_cut_mid_line_keeps_complete_reports_and_says_the_line_was_cut(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A capture killed in the middle of a row: the reports before it are imported, a warning says
    the last line was cut, and no value is made up from the cut row."""
    data = clean(fmt)
    start, end = last_data_line(data)
    cut = data[: start + (end - start) // 2]
    rep = import_one(lib, tmp_path, "cut", fmt, cut)
    assert says_cut(rep.sources[0].warnings), rep.sources[0].warnings
    got, ref = series_of(lib, rep.id), reference(fmt)
    assert invented(got, ref) == []
    assert set(got) == set(ref)
    assert all(len(got[k][0]) >= len(ref[k][0]) - 1 for k in ref)


@pytest.mark.parametrize(
    ("fmt", "number"),
    [("iostat", b"32.80\n"), ("mpstat", b"59.41\n")],
)
def test_cut_inside_the_last_number_stores_no_truncated_value(
    lib: Library, tmp_path: Path, reference: Any, fmt: str, number: bytes
) -> None:
    """A file cut inside the last number of a row (all columns present, the last one short) must not
    store the shortened number as a value."""
    data = clean(fmt)
    cut = data[: data.index(number) + 1]
    rep = import_one(lib, tmp_path, "cut", fmt, cut)
    assert any("cut" in w.text for w in rep.sources[0].warnings)
    assert invented(series_of(lib, rep.id), reference(fmt)) == []


def test_vmstat_cut_before_the_timestamp_keeps_the_file_times(lib: Library, tmp_path: Path, reference: Any) -> None:
    """`vmstat -t` killed after the values of a row but before its time: the earlier rows keep their
    printed times; the cut row is not imported."""
    data = clean("vmstat")
    start, end = last_data_line(data)
    line = data[start:end]
    cut = data[: start + line.index(b"2026-")]
    rep = import_one(lib, tmp_path, "cut", "vmstat", cut)
    assert rep.sources[0].clock.startswith("file times"), rep.sources[0].clock
    assert invented(series_of(lib, rep.id), reference("vmstat")) == []


@pytest.mark.parametrize("fmt", ["iostat", "vmstat"])
def test_cut_in_the_leading_spaces_of_a_line(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A capture cut right after the indentation of its next row imports what came before."""
    data = clean(fmt)
    start, _ = last_data_line(data)
    assert data[start : start + 1] == b" "
    rep = import_one(lib, tmp_path, "cut", fmt, data[: start + 1])
    assert invented(series_of(lib, rep.id), reference(fmt)) == []


def test_iostat_cut_inside_a_timestamp_line(lib: Library, tmp_path: Path, reference: Any) -> None:
    """iostat -t cut while printing the time of the next report imports the reports before it."""
    data = clean("iostat")
    at = data.index(b"\n11/22/26 02:47:20") + 4
    rep = import_one(lib, tmp_path, "cut", "iostat", data[:at])
    assert invented(series_of(lib, rep.id), reference("iostat")) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_cut_at_any_line_end_invents_nothing(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """Cut after any of the first 45 lines (mid-report, between a header and its rows ...): the
    import either refuses with a clear message (nothing recognisable yet) or keeps a prefix of the
    clean values, never a made-up one, and never warns about a cut line."""
    data = clean(fmt)
    ref = reference(fmt)
    ends = [m.end() for m in re.finditer(rb"\n", data)][:45]
    problems = []
    for k, end in enumerate(ends):
        runs_before = len(lib.runs())
        try:
            rep = import_one(lib, tmp_path, f"cut{k}", fmt, data[:end])
        except FolderError as e:
            assert len(lib.runs()) == runs_before
            assert "nothing to import" in str(e)
            continue
        if says_cut(rep.sources[0].warnings):
            problems.append(f"line {k + 1}: warns about a cut line")
        problems += [f"line {k + 1}: {p}" for p in invented(series_of(lib, rep.id), ref)]
    assert problems == []


def test_cut_between_cpu_block_and_device_rows(lib: Library, tmp_path: Path, reference: Any) -> None:
    """iostat cut after a report's avg-cpu values but before its device rows: that report's CPU
    values are kept, no device value is made up for it."""
    data = clean("iostat")
    at = data.index(b"\n", data.index(b"11/22/26 02:47:20") + 80)  # end of the avg-cpu values line
    at = data.index(b"\n", at + 1) + 1
    rep = import_one(lib, tmp_path, "cut", "iostat", data[:at])
    got, ref = series_of(lib, rep.id), reference("iostat")
    assert invented(got, ref) == []
    n_cpu = len(got[("iostat", "%idle", "")][0])
    assert len(got[("iostat", "%util", "vda")][0]) == n_cpu - 1


@pytest.mark.parametrize("fmt", ["iostat", "mpstat"])
def test_truncated_json_capture_is_a_warning(lib: Library, tmp_path: Path, fmt: str) -> None:
    """A `-o JSON` capture cut in half cannot be read: one clear warning, no traceback, no values."""
    name = {"iostat": "iostat/iostat_12.6.1_C_JSON-x-t.txt", "mpstat": "mpstat/mpstat_12.6.1_C_JSON-P-ALL.txt"}[fmt]
    data = (FIXTURES / name).read_bytes()
    rep = import_one(lib, tmp_path, "cut", fmt, data[: len(data) // 2])
    assert any("JSON" in w.text for w in rep.sources[0].warnings), rep.sources[0].warnings
    assert rep.sources[0].series == 0


MPSTAT_JSON_HEAD = b'{"sysstat": {"hosts": [{"nodename": "vm", "date": "11/22/26", "statistics": '


@pytest.mark.parametrize(
    "stats",
    [
        pytest.param(b"[]", id="empty-statistics"),
        pytest.param(b'[{"timestamp": "02:47:14", "cpu-load": 5}]', id="cpu-load-not-a-list"),
        pytest.param(b'"nope"', id="statistics-not-a-list"),
    ],
)
def test_odd_mpstat_json_is_a_warning(lib: Library, tmp_path: Path, stats: bytes) -> None:
    """Well-formed JSON with unexpected shapes gives a warning and no values, never a traceback."""
    data = MPSTAT_JSON_HEAD + stats + b'}]}, "cpu-load": []}\n'
    rep = import_one(lib, tmp_path, "odd", "mpstat", data)
    assert rep.sources[0].series == 0


def test_deeply_nested_json_is_a_warning(lib: Library, tmp_path: Path) -> None:
    """A JSON bomb (100k nested arrays) that sniffs as iostat JSON is refused with a message."""
    data = b'{"sysstat": {"disk": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n"
    rep = import_one(lib, tmp_path, "deep", "iostat", data)
    assert rep.sources[0].series == 0


# ---- 4. binary, empty, wrong encoding, huge lines ----------------------------------------------

ENCODINGS = ["utf-16", "utf-16-le", "utf-16-be", "utf-32"]


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_wrong_encoding_is_skipped_with_a_reason(lib: Library, tmp_path: Path, encoding: str) -> None:
    """A UTF-16/32 copy of a capture (e.g. saved by a Windows editor) is listed as skipped."""
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    (d / "iostat16.log").write_bytes(clean("iostat").decode().encode(encoding))
    rep = import_path(lib, d)
    reasons = {s["path"]: s["reason"] for s in rep.skipped}
    assert re.search(r"binary|UTF|not text", reasons["iostat16.log"]), reasons["iostat16.log"]
    assert len(rep.sources) == 3


@pytest.mark.parametrize(
    ("name", "data", "reason"),
    [
        ("empty.log", b"", "empty file"),
        ("utf16.log", clean("iostat").decode().encode("utf-16"), "UTF"),
        ("binary.log", bytes(range(256)) * 256, "binary"),
        ("gzipped.bin.gz", gzip.compress(bytes(range(256)) * 256, mtime=0), "binary"),
        ("config.log", b"[mysqld]\nport = 3306\n", "not a known format"),
    ],
)
def test_single_unreadable_file_is_refused_with_its_reason(
    lib: Library, tmp_path: Path, name: str, data: bytes, reason: str
) -> None:
    """Importing one such file names the file and why it is not imported; the library stays empty."""
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(FolderError, match=re.escape(f"nothing to import ({name}: ") + f".*{reason}"):
        import_path(lib, path)
    assert lib.runs() == []


def test_folder_with_nothing_importable_is_one_line_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`benchlens import` on a folder of junk: exit 1, one `benchlens:` line listing reasons."""
    d = folder(
        tmp_path,
        "junk",
        {
            "empty.log": b"",
            "iostat16.log": clean("iostat").decode().encode("utf-16"),
            "core": b"\x7fELF\x02\x01\x01\x00" + bytes(1000),
            "notes.txt": b"ran sysbench for 10 min\n",
        },
    )
    line = cli_error(capsys, "import", str(d), "--db", str(tmp_path / "lib.sqlite"))
    assert "nothing to import" in line
    with Library(tmp_path / "lib.sqlite") as lib:
        assert lib.runs() == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_mib_line_without_newline_at_the_end(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """2 MiB of junk with no newline after the last report: a 'cut' warning, the values unchanged."""
    rep = import_one(lib, tmp_path, "huge", fmt, clean(fmt) + b"x" * (2 << 20))
    assert says_cut(rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(series_of(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_mib_line_in_the_middle(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A 2 MiB junk line between reports is one numbered warning; everything else is imported."""
    rep = import_one(lib, tmp_path, "huge", fmt, insert_line(clean(fmt), NEUTRAL[fmt], b"7" * (2 << 20)))
    assert NEUTRAL[fmt] + 1 in line_numbers(rep.sources[0].warnings)
    assert_same_series(series_of(lib, rep.id), reference(fmt))


def test_line_over_the_limit_keeps_the_reports_before_it(lib: Library, tmp_path: Path, reference: Any) -> None:
    """A 5 MiB junk line after the reports: reading stops there with a message, the reports read
    before it are kept."""
    rep = import_one(lib, tmp_path, "huge", "iostat", clean("iostat") + b"y" * (5 << 20) + b"\n")
    assert any("longer than" in w.text for w in rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(series_of(lib, rep.id), reference("iostat"))


# ---- 5. line ends and byte order mark -----------------------------------------------------------

VARIANTS = {
    "crlf": lambda b: b.replace(b"\n", b"\r\n"),
    "bom": lambda b: codecs.BOM_UTF8 + b,
    "bom_crlf": lambda b: codecs.BOM_UTF8 + b.replace(b"\n", b"\r\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_crlf_and_bom_give_the_same_series(
    lib: Library, tmp_path: Path, reference: Any, fmt: str, variant: str
) -> None:
    """A capture saved with Windows line ends and/or a UTF-8 BOM imports exactly like the original."""
    rep = import_one(lib, tmp_path, "v", fmt, VARIANTS[variant](clean(fmt)))
    assert not any("line" in str(w) for w in rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(series_of(lib, rep.id), reference(fmt))


def test_whole_folder_with_crlf_and_bom_gives_the_same_run(lib: Library, tmp_path: Path) -> None:
    """The folder's clock (zone read from vmstat's header) survives CRLF + BOM too."""
    files = {f"{fmt}.log": VARIANTS["bom_crlf"](clean(fmt)) for fmt in FORMATS}
    rep = import_path(lib, folder(tmp_path, "dos", files))
    plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"))
    assert lib.run(rep.id).tz == lib.run(plain.id).tz
    assert_same_series(series_of(lib, rep.id), series_of(lib, plain.id))


# ---- 6. decimal comma ---------------------------------------------------------------------------

COMMA_CAPTURES = sorted(
    p
    for fmt in ("iostat", "mpstat")
    for p in (FIXTURES / fmt).glob("*.txt")
    if ("de_DE" in p.name or "fr_FR" in p.name) and "JSON" not in p.name
)


@pytest.mark.parametrize("path", COMMA_CAPTURES, ids=lambda p: p.name)
def test_decimal_comma_capture_is_never_read_as_thousands(lib: Library, path: Path) -> None:
    """de_DE / fr_FR captures: every percentage stays within 0..100 (a comma read as a thousands
    separator would give 5 000 for '5,00')."""
    rep = import_path(lib, path, UTC)
    percents = [s for s in lib.series(rep.id) if s.unit == "%"]
    for s in percents:
        v = lib.load(s)[1]
        assert np.nanmax(v, initial=0) < 101, (s.metric, s.entity, np.nanmax(v))
        assert np.nanmin(v, initial=0) >= 0
    assert percents or "human" in path.name


@pytest.mark.parametrize("fmt", ["iostat", "mpstat"])
def test_comma_copy_of_a_dot_capture_gives_the_same_values(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """The C capture rewritten with decimal commas imports to exactly the same numbers."""
    data = clean(fmt)
    first_nl = data.index(b"\n")
    comma = data[:first_nl] + re.sub(rb"(?<=\d)\.(?=\d)", b",", data[first_nl:])
    rep = import_one(lib, tmp_path, "comma", fmt, comma)
    assert "decimal comma" in rep.sources[0].variant
    assert_same_series(series_of(lib, rep.id), reference(fmt))


def test_dot_line_inside_a_comma_file_is_a_warning(lib: Library, tmp_path: Path) -> None:
    """A C-locale row pasted into a de_DE capture is reported and not read."""
    data = (FIXTURES / "runs" / "locales_de_DE" / "iostat.log").read_bytes()
    ref = import_one(lib, tmp_path, "clean_de", "iostat", data)
    row = next(line for line in data.split(b"\n") if line.startswith(b"vda"))
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(data, 9, row.replace(b",", b".")))
    assert 10 in line_numbers(rep.sources[0].warnings)
    assert_same_series(series_of(lib, rep.id), series_of(lib, ref.id))


def test_comma_file_with_a_dot_heavy_head_is_not_mis_scaled(lib: Library, tmp_path: Path) -> None:
    """A de_DE capture preceded by a long line of dot decimals (so the head looks C-locale): its
    comma values may be refused, never read with a wrong scale."""
    data = (FIXTURES / "runs" / "locales_de_DE" / "iostat.log").read_bytes()
    ref = import_one(lib, tmp_path, "clean_de", "iostat", data)
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(data, 1, b" ".join([b"1.5"] * 2000)))
    got, want = series_of(lib, rep.id), series_of(lib, ref.id)
    assert invented(got, want) == []


# ---- 7. a failed import leaves the library as it was -------------------------------------------


def raising_after(real: Any, blocks: int, exc: BaseException) -> Any:
    """A parse() that yields `blocks` blocks of the real import, then raises (the head probe, which
    runs with a RawClock, is left alone)."""

    def parse(chunks: Iterator[bytes], ctx: Any) -> Iterator[Any]:
        if isinstance(ctx.clock, RawClock):
            yield from real(chunks, ctx)
            return
        for k, block in enumerate(real(chunks, ctx)):
            if k == blocks:
                raise exc
            yield block

    return parse


@pytest.fixture
def populated(lib: Library, tmp_path: Path) -> Library:
    """A library holding one run already."""
    import_path(lib, shutil.copytree(FIXTURES / "runs" / "locales_C", tmp_path / "earlier"))
    return lib


def assert_untouched(lib: Library, before: dict[str, list[tuple[Any, ...]]], runs: list[dict[str, Any]]) -> None:
    assert not lib.conn.in_transaction
    assert lib.runs() == runs
    assert snapshot(lib) == before
    assert orphans(lib) == {}


def test_error_while_writing_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A failure after one source is fully written (SeriesSink.close of the second raises): no new
    run, no leftover sources/series/times/chunks, and the next import works."""
    lib = populated
    before, runs = snapshot(lib), lib.runs()
    real_close = store_writer.SeriesSink.close
    calls = []

    def close(self: Any) -> tuple[int, int]:
        calls.append(1)
        out = real_close(self)
        if len(calls) == 2:
            raise RuntimeError("disk on fire")
        return out

    monkeypatch.setattr(store_writer.SeriesSink, "close", close)
    d = shutil.copytree(RUN, tmp_path / "new")
    with pytest.raises(RuntimeError, match="disk on fire"):
        import_path(lib, d)
    assert len(calls) == 2
    assert_untouched(lib, before, runs)
    monkeypatch.undo()
    rep = import_path(lib, d)
    assert not rep.unchanged and len(rep.sources) == 3
    assert orphans(lib) == {}


@pytest.mark.parametrize("exc", [RuntimeError("parser bug"), KeyboardInterrupt()], ids=["RuntimeError", "Ctrl-C"])
def test_interrupted_parse_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exc: BaseException
) -> None:
    """An error or Ctrl-C while mpstat.log streams in (after iostat.log is written): nothing stays."""
    lib = populated
    before, runs = snapshot(lib), lib.runs()
    monkeypatch.setattr(benchlens.importers.mpstat, "parse", raising_after(benchlens.importers.mpstat.parse, 2, exc))
    with pytest.raises(type(exc)):
        import_path(lib, shutil.copytree(RUN, tmp_path / "new"))
    assert_untouched(lib, before, runs)


@pytest.mark.parametrize("exc", [ImportCancelled, KeyboardInterrupt])
def test_cancel_from_the_progress_callback_leaves_the_library_unchanged(
    populated: Library, tmp_path: Path, exc: type[BaseException]
) -> None:
    """Cancel (or Ctrl-C) raised from the progress callback once bytes were read: nothing stays."""
    lib = populated
    before, runs = snapshot(lib), lib.runs()
    seen: list[int] = []

    def progress(done: int, total: int) -> None:
        seen.append(done)
        if done > 0:
            raise exc()

    with pytest.raises(exc):
        import_path(lib, shutil.copytree(RUN, tmp_path / "new"), Options(progress=progress))
    assert seen
    assert_untouched(lib, before, runs)


def test_failed_reimport_keeps_the_previous_data(lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A changed folder whose re-import fails half-way keeps the run exactly as it was imported."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before, runs = snapshot(lib), lib.runs()
    (d / "vmstat.log").write_bytes(clean("vmstat") + clean("vmstat").splitlines(keepends=True)[-1])
    monkeypatch.setattr(
        benchlens.importers.mpstat, "parse", raising_after(benchlens.importers.mpstat.parse, 1, KeyboardInterrupt())
    )
    with pytest.raises(KeyboardInterrupt):
        import_path(lib, d)
    assert_untouched(lib, before, runs)
    assert lib.run(first.id).id == first.id


def test_ctrl_c_in_the_cli_is_one_line_and_leaves_the_library_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C during `benchlens import`: exit 130, `benchlens: interrupted`, library as before."""
    db = tmp_path / "lib.sqlite"
    assert main(["import", str(FIXTURES / "runs" / "locales_C"), "--db", str(db)]) == 0
    with Library(db) as lib:
        before, runs = snapshot(lib), lib.runs()
    monkeypatch.setattr(
        benchlens.importers.iostat, "parse", raising_after(benchlens.importers.iostat.parse, 1, KeyboardInterrupt())
    )
    capsys.readouterr()
    rc = main(["import", str(shutil.copytree(RUN, tmp_path / "new")), "--db", str(db)])
    err = capsys.readouterr().err
    assert rc == 130
    assert err.strip().splitlines() == ["benchlens: interrupted"]
    with Library(db) as lib:
        assert_untouched(lib, before, runs)


# ---- 8. re-importing --------------------------------------------------------------------------


def test_reimporting_an_unchanged_folder_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """The second import says 'unchanged', keeps the run id, writes nothing."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib)
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert snapshot(lib) == before
    assert [(s.path, s.series, s.samples) for s in again.sources] == [
        (s.path, s.series, s.samples) for s in first.sources
    ]


def test_touching_files_without_changing_them_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """A newer mtime with the same bytes (copied again, `touch`) is still 'unchanged'."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib)
    for p in d.iterdir():
        st = p.stat()
        os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns + 3_600_000_000_000))
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert snapshot(lib) == before


def test_adding_unknown_files_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    """A my.cnf dropped into an imported folder changes nothing (it is listed as skipped)."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    before = snapshot(lib)
    (d / "my.cnf").write_text("[mysqld]\n")
    again = import_path(lib, d)
    assert again.unchanged is True and again.id == first.id
    assert [s["path"] for s in again.skipped] == ["my.cnf"]
    assert snapshot(lib) == before


def test_changed_content_replaces_the_run_data_under_the_same_id(lib: Library, tmp_path: Path) -> None:
    """iostat.log losing its last report: same run id, data equal to a fresh import of the new
    folder, one run, no leftovers of the old data."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    raw = clean("iostat")
    (d / "iostat.log").write_bytes(raw[: raw.rstrip(b"\n").rfind(b"\n\n\n") + 3])
    again = import_path(lib, d)
    assert again.unchanged is False and again.id == first.id
    assert len(lib.runs()) == 1
    assert orphans(lib) == {}
    with Library(tmp_path / "fresh.sqlite") as fresh:
        ref = import_path(fresh, d)
        assert_same_series(series_of(lib, again.id), series_of(fresh, ref.id))
    n_io = {s.path: s.samples for s in again.sources}["iostat.log"]
    assert n_io < {s.path: s.samples for s in first.sources}["iostat.log"]


def test_removed_file_disappears_from_the_run(lib: Library, tmp_path: Path) -> None:
    """Deleting mpstat.log from the folder and re-importing drops its series."""
    d = shutil.copytree(RUN, tmp_path / "run")
    first = import_path(lib, d)
    (d / "mpstat.log").unlink()
    again = import_path(lib, d)
    assert again.id == first.id and not again.unchanged
    assert {s.format for s in lib.series(again.id)} == {"iostat", "vmstat"}
    assert orphans(lib) == {}


def test_cli_reimport_reports_unchanged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchlens import` twice: the second run line says 'unchanged'."""
    db = str(tmp_path / "lib.sqlite")
    d = str(shutil.copytree(RUN, tmp_path / "run"))
    assert main(["import", d, "--db", db]) == 0
    capsys.readouterr()
    assert main(["import", d, "--db", db]) == 0
    assert "unchanged" in capsys.readouterr().out.splitlines()[0]


# ---- 9. CLI errors ----------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = tmp_path / "lib.sqlite"
    assert main(["import", str(RUN), "--db", str(path)]) == 0
    return str(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["dump", "no-such-run", "--source", "iostat", "--metric", "%util"], "no run 'no-such-run'"),
        (["dump", "999", "--source", "iostat", "--metric", "%util"], "no run '999'"),
        (["dump", "c_basic", "--source", "iostat", "--metric", "nope"], "no series iostat:nope"),
        (["dump", "c_basic", "--source", "zfs", "--metric", "%util"], "no series zfs:%util"),
        (["dump", "c_basic", "--source", "mpstat", "--metric", "%usr"], "several entities"),
        (["dump", "c_basic", "--source", "mpstat", "--metric", "%usr", "--entity", "7"], "no series mpstat:%usr:7"),
        (["series", "no-such-run"], "no run 'no-such-run'"),
    ],
    ids=["unknown-run", "unknown-id", "unknown-metric", "unknown-source", "ambiguous", "unknown-entity", "series"],
)
def test_cli_lookup_errors_are_one_clear_line(
    db: str, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Asking for something that is not in the library: exit 1 and one line saying what is missing."""
    assert message in cli_error(capsys, *args, "--db", db)


def test_cli_import_of_a_missing_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A typo in the path: exit 1, one line naming the path."""
    line = cli_error(capsys, "import", str(tmp_path / "no-such-run"), "--db", str(tmp_path / "lib.sqlite"))
    assert "no-such-run" in line and "no such file" in line


def test_cli_import_of_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A FIFO path: exit 1, one line, no wait for a writer."""
    os.mkfifo(tmp_path / "pipe")
    line = cli_error(capsys, "import", str(tmp_path / "pipe"), "--db", str(tmp_path / "lib.sqlite"))
    assert "not a regular file" in line


def test_cli_good_and_bad_paths_together(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Importing a good folder and a missing one: the good one is imported, the bad one is one
    stderr line, exit 1."""
    db = str(tmp_path / "lib.sqlite")
    capsys.readouterr()
    rc = main(["import", str(RUN), str(tmp_path / "missing"), "--db", db])
    out, err = capsys.readouterr()
    assert rc == 1
    assert "imported" in out
    assert len(err.strip().splitlines()) == 1 and err.startswith("benchlens: ")
    with Library(db) as lib:
        assert [r.name for r in lib.runs()] == ["c_basic"]


def test_cli_db_that_is_not_a_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--db pointing at some other file: exit 1, one line, the file is left as it was."""
    other = tmp_path / "notes.sqlite"
    other.write_bytes(b"not a database at all\n" * 10)
    line = cli_error(capsys, "runs", "--db", str(other))
    assert "cannot open the library" in line
    assert other.read_bytes() == b"not a database at all\n" * 10
    other2 = tmp_path / "foreign.sqlite"
    with sqlite3.connect(other2) as c:
        c.execute("CREATE TABLE t (x)")
    assert "not a benchlens library" in cli_error(capsys, "runs", "--db", str(other2))


def test_cli_out_of_range_tz_offset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--tz +25:00 on a folder without zone evidence: one line saying the zone is not valid."""
    notimes = str(FIXTURES / "runs" / "notimes")
    line = cli_error(capsys, "import", notimes, "--tz", "+25:00", "--db", str(tmp_path / "lib.sqlite"))
    assert "+25:00" in line


def test_cli_import_of_a_symlink_loop(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A path that is a symlink loop: exit 1, one line."""
    os.symlink(tmp_path / "b", tmp_path / "a")
    os.symlink(tmp_path / "a", tmp_path / "b")
    cli_error(capsys, "import", str(tmp_path / "a"), "--db", str(tmp_path / "lib.sqlite"))


def test_cli_import_of_a_truncated_capture_never_prints_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The c_basic folder with mpstat.log cut mid-row (stdio buffer flushed at kill): exit 0, the
    cut is a warning on stdout."""
    d = shutil.copytree(RUN, tmp_path / "run")
    data = clean("mpstat")
    start, end = last_data_line(data)
    (d / "mpstat.log").write_bytes(data[: start + (end - start) // 2])
    capsys.readouterr()
    rc = main(["import", str(d), "--db", str(tmp_path / "lib.sqlite")])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert "cut" in out
