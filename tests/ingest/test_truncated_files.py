"""Truncated files (PRODUCT.md "What bad input gets"): a capture killed mid-row, mid-number, mid-
timestamp or between a report's blocks keeps its complete reports, says the last line was cut, and
never stores a value made up from the cut part; cut or odd JSON captures are a warning, never a
traceback. Built in tmp_path from the real c_basic captures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from benchlens.app.ingest import FolderError
from benchlens.app.store import Library
from tests.bad_input import FORMATS, clean, import_one, last_data_line, says_cut
from tests.conftest import FIXTURES, invented, run_series


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
    got, ref = run_series(lib, rep.id), reference(fmt)
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
    assert invented(run_series(lib, rep.id), reference(fmt)) == []


def test_vmstat_cut_before_the_timestamp_keeps_the_file_times(lib: Library, tmp_path: Path, reference: Any) -> None:
    """`vmstat -t` killed after the values of a row but before its time: the earlier rows keep their
    printed times; the cut row is not imported."""
    data = clean("vmstat")
    start, end = last_data_line(data)
    line = data[start:end]
    cut = data[: start + line.index(b"2026-")]
    rep = import_one(lib, tmp_path, "cut", "vmstat", cut)
    assert rep.sources[0].clock.startswith("file times"), rep.sources[0].clock
    assert invented(run_series(lib, rep.id), reference("vmstat")) == []


@pytest.mark.parametrize("fmt", ["iostat", "vmstat"])
def test_cut_in_the_leading_spaces_of_a_line(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A capture cut right after the indentation of its next row imports what came before."""
    data = clean(fmt)
    start, _ = last_data_line(data)
    assert data[start : start + 1] == b" "
    rep = import_one(lib, tmp_path, "cut", fmt, data[: start + 1])
    assert invented(run_series(lib, rep.id), reference(fmt)) == []


def test_iostat_cut_inside_a_timestamp_line(lib: Library, tmp_path: Path, reference: Any) -> None:
    """iostat -t cut while printing the time of the next report imports the reports before it."""
    data = clean("iostat")
    at = data.index(b"\n11/22/26 02:47:20") + 4
    rep = import_one(lib, tmp_path, "cut", "iostat", data[:at])
    assert invented(run_series(lib, rep.id), reference("iostat")) == []


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
        problems += [f"line {k + 1}: {p}" for p in invented(run_series(lib, rep.id), ref)]
    assert problems == []


def test_cut_between_cpu_block_and_device_rows(lib: Library, tmp_path: Path, reference: Any) -> None:
    """iostat cut after a report's avg-cpu values but before its device rows: that report's CPU
    values are kept, no device value is made up for it."""
    data = clean("iostat")
    at = data.index(b"\n", data.index(b"11/22/26 02:47:20") + 80)  # end of the avg-cpu values line
    at = data.index(b"\n", at + 1) + 1
    rep = import_one(lib, tmp_path, "cut", "iostat", data[:at])
    got, ref = run_series(lib, rep.id), reference("iostat")
    assert invented(got, ref) == []
    n_cpu = len(got[("iostat", "%idle", "")][0])
    assert len(got[("iostat", "%util", "vda")][0]) == n_cpu - 1


@pytest.mark.parametrize("fmt", ["iostat", "mpstat"])
def test_truncated_json_capture_is_a_warning(lib: Library, tmp_path: Path, fmt: str) -> None:
    """A `-o JSON` capture cut in half cannot be read: refused with a clear reason, no traceback."""
    name = {"iostat": "iostat/iostat_12.6.1_C_JSON-x-t.txt", "mpstat": "mpstat/mpstat_12.6.1_C_JSON-P-ALL.txt"}[fmt]
    data = (FIXTURES / name).read_bytes()
    reason = refused(lib, tmp_path, "cut", fmt, data[: len(data) // 2])
    assert f"looks like {fmt} but no series could be read from it: stopped reading: not valid JSON" in reason


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
    """Well-formed JSON with unexpected shapes is refused with a reason, never a traceback."""
    data = MPSTAT_JSON_HEAD + stats + b'}]}, "cpu-load": []}\n'
    assert "looks like mpstat but no series could be read from it" in refused(lib, tmp_path, "odd", "mpstat", data)


def test_deeply_nested_json_is_a_warning(lib: Library, tmp_path: Path) -> None:
    """A JSON bomb (100k nested arrays) that sniffs as iostat JSON is refused with a message."""
    data = b'{"sysstat": {"disk": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}\n"
    assert "JSON nested too deeply" in refused(lib, tmp_path, "deep", "iostat", data)


def refused(lib: Library, tmp_path: Path, name: str, fmt: str, data: bytes) -> str:
    """The reason a folder holding only `data` is refused (a file that gives no series is no import)."""
    with pytest.raises(FolderError, match="nothing to import") as e:
        import_one(lib, tmp_path, name, fmt, data)
    assert lib.runs() == []
    return str(e.value)
