"""The compiled core's word-at-a-time paths against the pure-Python twin: digit runs read eight bytes at
a time (every run length around the 8-byte steps, at every alignment, ended by every kind of byte) and
plain_rows' eight-byte check for signs and separators (every position of the odd byte)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchlens.importers import _tokens

pytestmark = pytest.mark.skipif(not _tokens.HAS_COMPILED_CORE, reason="compiled core not built")

FIELDS = ("line_start", "line_end", "line_numeric", "tok_first", "tok_start", "tok_end", "kind", "hash")


def assert_same(data: bytes, decimal: str) -> None:
    c, py = _tokens.tokenize_c(data, decimal), _tokens.tokenize_py(data, decimal)
    for f in FIELDS:
        assert np.array_equal(getattr(c, f), getattr(py, f)), (f, data)
    assert np.array_equal(c.val, py.val, equal_nan=True), data


DIGITS = "9081726354"
ENDS = [b"", b" ", b"\n", b"\r\n", b"x", b"\xc3\xa9", b".", b",", b"-", b"/", b":", b"\x00", b"\x7f"]


@pytest.mark.parametrize("decimal", [".", ","])
@pytest.mark.parametrize("length", range(1, 25))
def test_every_digit_run_length_alignment_and_end(length: int, decimal: str) -> None:
    run = (DIGITS * 3)[:length].encode()
    numbers = [run, b"-" + run, b"+" + run]
    numbers += [run[:k] + decimal.encode() + run[k:] for k in range(length + 1)]
    for number, end, pad in itertools.product(numbers, ENDS, range(9)):  # pad: every alignment of the run
        assert_same(b" " * pad + number + end + (b" 7" if pad % 2 else b""), decimal)


def test_runs_of_digits_beside_the_byte_values_around_them() -> None:
    """The bytes next to '0' and '9' (and past 0x80) end a run, whatever eight-byte word they fall in."""
    for k in range(1, 10):
        for odd in (0x2F, 0x3A, 0xAF, 0xB0, 0xB9, 0xBA, 0x80, 0xFF):
            data = b"12345678"[:k] + bytes([odd]) + b"1234567"
            assert_same(data, ".")
            assert_same(b"1 " + data + b"\n", ",")


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from([b"0", b"5", b"9", b"12345678", b".", b",", b"-", b"+", b" ", b"\t", b"\n", b"a",
                                 b"\xb5", b"\r"]), max_size=60),
       st.sampled_from([".", ","]))  # fmt: skip
def test_random_number_like_text(parts: list[bytes], decimal: str) -> None:
    assert_same(b"".join(parts), decimal)


@pytest.mark.parametrize("odd", [b"+", b",", b"-", b"."])
def test_plain_rows_finds_the_odd_byte_at_every_position(monkeypatch: pytest.MonkeyPatch, odd: bytes) -> None:
    """Rows `major minor name counters` of every length across the eight-byte steps, one sign or
    separator placed at each position (in the name it does not count), against the twin."""
    lines = []
    for width in range(1, 20):
        counters = [b"1234567"[: (width + j) % 7 + 1] for j in range(width)]
        line = b" ".join([b"8", b"16", b"sd-b", *counters])
        lines.append(line)
        for pos in range(len(line)):
            if line[pos : pos + 1] != b" ":
                lines.append(line[:pos] + odd + line[pos + 1 :])
    toks = _tokens.tokenize(b"\n".join(lines) + b"\n")
    rows = np.flatnonzero(toks.count >= 4)
    compiled = toks.plain_rows(rows, 2)
    monkeypatch.setattr(_tokens, "_scan", None)
    twin = toks.plain_rows(rows, 2)
    assert np.array_equal(compiled, twin)
    assert compiled.any() and not compiled.all()
