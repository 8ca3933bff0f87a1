"""Partly garbage files (PRODUCT.md "What bad input gets"): a stray line of text, numbers, Latin-1,
escape codes, NUL bytes, a short row, a decimal-comma row in a dot file or a 2 MiB line gets a
`line N:` warning and every value of the clean capture is still imported exactly; thousands of junk
lines give a bounded warning list; a capture over one 4 MiB read block reads across the boundary.
Built in tmp_path from the real c_basic captures."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens.app.store import Library
from tests.bad_input import FORMATS, NEUTRAL, clean, import_one, insert_line, line_numbers, says_cut
from tests.conftest import assert_same_series, run_series

# ---- 1. stray lines ------------------------------------------------------------------------------

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
    assert_same_series(run_series(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_stray_line_starting_with_a_label_colon_is_a_warning(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A message like `ERROR: disk full` mixed into the capture is reported by line number."""
    idx = NEUTRAL[fmt]
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(clean(fmt), idx, b"ERROR: disk full"))
    assert idx + 1 in line_numbers(rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(run_series(lib, rep.id), reference(fmt))


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
    assert_same_series(run_series(lib, rep.id), reference(fmt))


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
    assert_same_series(run_series(lib, rep.id), reference(fmt))


def test_many_garbage_lines_give_a_bounded_warning_list(lib: Library, tmp_path: Path, reference: Any) -> None:
    """Thousands of junk lines do not flood the report: the list is capped with a 'more warnings'
    note, and the values are still those of the clean file."""
    junk = b"\n".join(b"junk line %d" % k for k in range(5000))
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(clean("iostat"), NEUTRAL["iostat"], junk))
    warnings = rep.sources[0].warnings
    assert len(warnings) <= 210
    assert "more warnings not shown" in warnings[-1].text
    assert_same_series(run_series(lib, rep.id), reference("iostat"))


@pytest.mark.parametrize("fmt", FORMATS)
def test_garbage_last_line_is_a_warning(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A short junk line at the very end of a capture (complete, with its newline) is a warning."""
    data = clean(fmt).rstrip(b"\n") + b"\n5x\n"
    rep = import_one(lib, tmp_path, "bad", fmt, data)
    n_lines = data.count(b"\n")
    assert n_lines in line_numbers(rep.sources[0].warnings)
    assert_same_series(run_series(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", ["iostat", "vmstat", "mpstat"])
def test_nul_bytes_in_a_line_near_the_start_are_a_warning(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """A line of NUL bytes (left by a crash) near the top is a numbered warning, not a lost file."""
    rep = import_one(lib, tmp_path, "bad", fmt, insert_line(clean(fmt), NEUTRAL[fmt], b"\x00" * 64))
    assert rep.skipped == []
    assert NEUTRAL[fmt] + 1 in line_numbers(rep.sources[0].warnings)
    assert_same_series(run_series(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_zero_filled_tail_after_a_crash_keeps_the_reports(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """After a power loss the file often ends in a 4 KiB block of NUL bytes: the reports before it
    are imported and the user is told the end is damaged."""
    rep = import_one(lib, tmp_path, "crashed", fmt, clean(fmt) + b"\x00" * 4096)
    assert rep.skipped == []
    assert rep.sources[0].warnings != []
    assert_same_series(run_series(lib, rep.id), reference(fmt))


# ---- 2. a capture longer than one read block -----------------------------------------------------


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
    got = run_series(lib, rep.id)
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
    assert_same_series(run_series(lib, rep.id), run_series(lib, ref.id))


# ---- 3. huge lines -------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_mib_line_without_newline_at_the_end(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """2 MiB of junk with no newline after the last report: a 'cut' warning, the values unchanged."""
    rep = import_one(lib, tmp_path, "huge", fmt, clean(fmt) + b"x" * (2 << 20))
    assert says_cut(rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(run_series(lib, rep.id), reference(fmt))


@pytest.mark.parametrize("fmt", FORMATS)
def test_two_mib_line_in_the_middle(lib: Library, tmp_path: Path, reference: Any, fmt: str) -> None:
    """A 2 MiB junk line between reports is one numbered warning; everything else is imported."""
    rep = import_one(lib, tmp_path, "huge", fmt, insert_line(clean(fmt), NEUTRAL[fmt], b"7" * (2 << 20)))
    assert NEUTRAL[fmt] + 1 in line_numbers(rep.sources[0].warnings)
    assert_same_series(run_series(lib, rep.id), reference(fmt))


def test_line_over_the_limit_keeps_the_reports_before_it(lib: Library, tmp_path: Path, reference: Any) -> None:
    """A 5 MiB junk line after the reports: reading stops there with a message, the reports read
    before it are kept."""
    rep = import_one(lib, tmp_path, "huge", "iostat", clean("iostat") + b"y" * (5 << 20) + b"\n")
    assert any("longer than" in w.text for w in rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(run_series(lib, rep.id), reference("iostat"))
