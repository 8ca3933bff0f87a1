"""The compiled tokenizer and its pure-Python twin give identical arrays."""

from __future__ import annotations

import numpy as np
import pytest

from benchlens.importers import _tokens
from tests.conftest import TABLE_FORMATS, fixture_files, sample_files

FIELDS = ("line_start", "line_end", "tok_first", "tok_start", "tok_end", "kind", "hash")
needs_c = pytest.mark.skipif(not _tokens.HAS_COMPILED_CORE, reason="compiled core not built")


def assert_same(a: _tokens.Tokens, b: _tokens.Tokens) -> None:
    for f in FIELDS:
        assert np.array_equal(getattr(a, f), getattr(b, f)), f
    assert np.array_equal(a.val, b.val, equal_nan=True)


EDGE = [
    b"",
    b"\n",
    b"abc",
    b"1,5 -2,25 x 1.5 ,5 5, -0,00 +7 - . ,\r\n\n  a",
    b"1234567890123456 12345678901234.5 123456789012345 0.000000000000001",
    b"\t sda\t 1.00\x00 2.00 \xff\xfe\n",
    b"\v\f 3 \r\r\n",
]


@needs_c
@pytest.mark.parametrize("data", EDGE)
@pytest.mark.parametrize("decimal", [".", ","])
def test_edge_cases_identical(data: bytes, decimal: str) -> None:
    assert_same(_tokens.tokenize_c(data, decimal), _tokens.tokenize_py(data, decimal))


@needs_c
@pytest.mark.parametrize("fmt", TABLE_FORMATS)
def test_fixtures_identical(fmt: str) -> None:
    for path in fixture_files(fmt) + sample_files(fmt):
        data = path.read_bytes()
        for decimal in ".,":
            assert_same(_tokens.tokenize_c(data, decimal), _tokens.tokenize_py(data, decimal))


def test_numbers_match_python_float() -> None:
    words = ["0.00", "99.50", "-1.5", "+3", "123456789012345", "1234567890123456", "0.1", "17.29", "6666.37"]
    toks = _tokens.tokenize(" ".join(words).encode())
    assert list(toks.val) == [float(w) for w in words]
    assert (toks.kind == _tokens.KIND_NUMBER).all()


def test_decimal_comma_is_never_a_thousands_separator() -> None:
    toks = _tokens.tokenize(b"2,25 1.000 22.11.2026", ",")
    assert toks.val[0] == 2.25
    assert toks.kind[1] == _tokens.KIND_TEXT  # a dot is not a number in a decimal-comma file
    assert toks.kind[2] == _tokens.KIND_TEXT


def test_text_tokens_are_nan_and_lines_strip_cr() -> None:
    toks = _tokens.tokenize(b"Device r/s\r\nsda 1.0\r\n")
    assert toks.n_lines == 2
    assert toks.line(0) == "Device r/s"
    assert np.isnan(toks.val[0])
    assert toks.words(1) == ["sda", "1.0"]


@needs_c
def test_gather_rows_matches_fancy_indexing() -> None:
    data = b"sda 1.0 2.0 3.0\nhdr x y\nsdb 4.5 5.5 6.5\nsdc 7 8 9\n"
    toks = _tokens.tokenize(data)
    rows = np.array([2, 0, 3])
    expected = toks.val[toks.tok_first[rows][:, None] + 1 + np.arange(3)]
    assert np.array_equal(toks.gather(rows, 1, 3), expected)
    with pytest.raises(IndexError):
        toks.gather(np.array([3]), 2, 3)  # past the last token: refused, never read out of bounds


@needs_c
def test_plain_rows_matches_the_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Digits-only rows (the name token excepted) as the compiled core and the pure-Python twin see them."""
    data = (
        b"TS 1795312800.690778902 2026-11-22 02:00:00\n"
        b"   8       0 sda 247587 318187 108338\n"
        b" 253       1 dm-1 5 6 7\r\n"
        b"   8      16 sdb 2.5 3 4\n"
        b"   8      -16 sdb 2 3 4\n"
        b"   8      16 sdc 2 3 +4\n"
        b"   8      16 sdd 2 3 4,0\n"
        b"   8      16 sde 2 3 4-\n"
        b"   8      16 s.f 2 3 4\n"
    )
    toks = _tokens.tokenize(data)
    rows = np.arange(1, toks.n_lines)
    compiled = toks.plain_rows(rows, 2)
    assert compiled.tolist() == [True, True, False, False, False, False, False, True]
    monkeypatch.setattr(_tokens, "_scan", None)
    assert np.array_equal(toks.plain_rows(rows, 2), compiled)
    monkeypatch.undo()
    with pytest.raises(IndexError):
        toks.plain_rows(np.array([0]), 4)  # the marker has too few tokens: refused, never read out of bounds
