"""Token arrays for a chunk of complete text lines.

Every table-like importer (vmstat, iostat, mpstat ...) works on these arrays instead of on Python
strings per line: rows are recognised and gathered with numpy, and only the few control lines
(headers, timestamps) are looked at one by one. The arrays come from the compiled core
`importers/_scan.c` when it is built, else from `tokenize_py`, its pure-Python twin; tests check
that both give identical arrays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

try:
    from importers import _scan  # type: ignore[attr-defined]
except ImportError:  # not compiled: the pure-Python twin below is used (slower, same results)
    _scan = None

KIND_TEXT = 0
KIND_NUMBER = 1
KIND_SLOW_NUMBER = 2  # a number too long for the exact fast path; converted by float() here

_FNV_OFFSET = 1469598103934665603
_FNV_PRIME = 1099511628211
_MASK64 = (1 << 64) - 1
_TOKEN = re.compile(rb"[^ \t\r\v\f]+")


def fnv1a(token: bytes) -> int:
    """The 64-bit FNV-1a hash the scanner gives each token (to compare labels without decoding)."""
    h = _FNV_OFFSET
    for byte in token:
        h = ((h ^ byte) * _FNV_PRIME) & _MASK64
    return h


@dataclass(frozen=True)
class Tokens:
    """Lines and tokens of one chunk. Line i spans data[line_start[i]:line_end[i]] (without the
    newline or a trailing CR) and owns tokens tok_first[i]:tok_first[i+1]."""

    data: bytes
    line_start: np.ndarray
    line_end: np.ndarray
    tok_first: np.ndarray
    tok_start: np.ndarray
    tok_end: np.ndarray
    val: np.ndarray
    kind: np.ndarray
    hash: np.ndarray

    @property
    def n_lines(self) -> int:
        return len(self.line_end)

    @property
    def count(self) -> np.ndarray:
        """Number of tokens on each line."""
        return np.diff(self.tok_first)

    def text(self, tok: int) -> str:
        return self.data[self.tok_start[tok] : self.tok_end[tok]].decode("utf-8", "replace")

    def line(self, i: int) -> str:
        return self.data[self.line_start[i] : self.line_end[i]].decode("utf-8", "replace")

    def words(self, i: int) -> list[str]:
        return [self.text(t) for t in range(self.tok_first[i], self.tok_first[i + 1])]

    def numeric_count(self, first: np.ndarray, stop: np.ndarray) -> np.ndarray:
        """How many numeric tokens lie in [first, stop) for each pair (vectorised)."""
        cum = np.concatenate(([0], np.cumsum(self.kind == KIND_NUMBER, dtype=np.int64)))
        return cum[stop] - cum[first]


def _number_pattern(decimal: bytes) -> re.Pattern[bytes]:
    d = re.escape(decimal)
    return re.compile(rb"[-+]?(?:[0-9]+(?:" + d + rb"[0-9]*)?|" + d + rb"[0-9]+)")


def tokenize_py(data: bytes, decimal: str = ".") -> Tokens:
    """Pure-Python twin of the compiled scanner (same arrays, same number syntax)."""
    number = _number_pattern(decimal.encode())
    line_start: list[int] = []
    line_end: list[int] = []
    tok_first: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    vals: list[float] = []
    kinds: list[int] = []
    hashes: list[int] = []
    pos = 0
    n = len(data)
    while pos < n:
        nl = data.find(b"\n", pos)
        stop = n if nl < 0 else nl
        line_start.append(pos)
        tok_first.append(len(starts))
        for m in _TOKEN.finditer(data, pos, stop):
            tok = m.group()
            starts.append(m.start())
            ends.append(m.end())
            hashes.append(fnv1a(tok))
            if number.fullmatch(tok):
                digits = sum(c in b"0123456789" for c in tok)
                kinds.append(KIND_NUMBER if digits <= 15 else KIND_SLOW_NUMBER)
                vals.append(float(tok.replace(decimal.encode(), b".")) if digits <= 15 else float("nan"))
            else:
                kinds.append(KIND_TEXT)
                vals.append(float("nan"))
        end = stop - 1 if stop > pos and data[stop - 1 : stop] == b"\r" else stop
        line_end.append(end)
        pos = stop + 1
        if nl < 0:
            break
    tok_first.append(len(starts))
    return Tokens(
        data,
        np.array(line_start, np.int64),
        np.array(line_end, np.int64),
        np.array(tok_first, np.int64),
        np.array(starts, np.int64),
        np.array(ends, np.int64),
        np.array(vals, np.float64),
        np.array(kinds, np.uint8),
        np.array(hashes, np.uint64),
    )


def tokenize_c(data: bytes, decimal: str = ".") -> Tokens:
    if _scan is None:
        raise RuntimeError("the compiled scanner is not built")
    lines = data.count(b"\n") + 1
    cap = len(data) // 4 + 16
    while True:
        ls = np.empty(lines, np.int64)
        le = np.empty(lines, np.int64)
        tf = np.empty(lines + 1, np.int64)
        ts = np.empty(cap, np.int64)
        te = np.empty(cap, np.int64)
        tv = np.empty(cap, np.float64)
        tk = np.empty(cap, np.uint8)
        th = np.empty(cap, np.uint64)
        nl, nt = _scan.tokenize(data, ord(decimal), ls, le, tf, ts, te, tv, tk, th)
        if nl >= 0:
            break
        cap = len(data) // 2 + 16  # the worst case: one-character tokens
    return Tokens(data, ls[:nl], le[:nl], tf[: nl + 1], ts[:nt], te[:nt], tv[:nt], tk[:nt], th[:nt])


def tokenize(data: bytes, decimal: str = ".") -> Tokens:
    """Scan complete lines; long numbers the fast path declined are converted here."""
    toks = tokenize_c(data, decimal) if _scan is not None else tokenize_py(data, decimal)
    slow = np.flatnonzero(toks.kind == KIND_SLOW_NUMBER)
    for t in slow:
        raw = toks.data[toks.tok_start[t] : toks.tok_end[t]].replace(decimal.encode(), b".")
        toks.val[t] = float(raw)
        toks.kind[t] = KIND_NUMBER
    return toks


HAS_COMPILED_CORE = _scan is not None
