"""Token arrays for a chunk of complete text lines.

Every table-like importer (vmstat, iostat, mpstat ...) works on these arrays instead of on Python
strings per line: rows are recognised and gathered with numpy, and only the few control lines
(headers, timestamps) are looked at one by one. The arrays come from the compiled core
`importers/_scan.c` when it is built, else from `tokenize_py`, its pure-Python twin; tests check
that both give identical arrays.
"""

from __future__ import annotations

import contextlib
import contextvars
import mmap
import queue
import re
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

try:
    from benchlens.importers import _scan  # type: ignore[attr-defined]
except ImportError:  # not compiled: the pure-Python twin below is used (slower, same results)
    _scan = None

KIND_TEXT = 0
KIND_NUMBER = 1
KIND_SLOW_NUMBER = 2  # a number too long for the exact fast path; converted by float() here

_FNV_OFFSET = 1469598103934665603
_FNV_PRIME = 1099511628211
_MASK64 = (1 << 64) - 1
_TOKEN = re.compile(rb"[^ \t\r\v\f]+")
HASHED_LEADING = 4  # numbers after the first four tokens of a line are not hashed (see _scan.c)


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
    line_numeric: np.ndarray  # numeric tokens on each line
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

    def gather(self, rows: np.ndarray, start: int, ncols: int) -> np.ndarray:
        """(rows, ncols) values: the `ncols` tokens from token `start` of each row (each row must
        have them). A row's values are contiguous, so the compiled core copies them row by row."""
        rows = np.ascontiguousarray(rows, np.int64)
        if _scan is None or not self.tok_first.flags.c_contiguous:
            return self.val[self.tok_first[rows][:, None] + start + np.arange(ncols)]
        out = np.empty((len(rows), ncols), np.float64)
        _scan.gather_rows(self.tok_first, rows, start, ncols, self.val, out)
        return out

    def plain_rows(self, rows: np.ndarray, skip: int) -> np.ndarray:
        """Rows with no `+`, `,`, `-` or `.` from their first token to their end, token `skip` (and
        the blanks after it) excepted: their number tokens are digits only. Each row must have
        `skip` + 2 tokens. The compiled core looks at each row's bytes; the twin finds those (rare)
        bytes of the chunk with bytes.find (memchr speed) and places them against each row's spans."""
        rows = np.ascontiguousarray(rows, np.int64)
        if _scan is not None and self.tok_first.flags.c_contiguous and self.tok_start.flags.c_contiguous:
            out = np.empty(len(rows), np.uint8)
            _scan.plain_rows(self.data, self.tok_first, self.tok_start, self.line_end, rows, skip, out)
            return out.view(bool)
        odd = np.array(sorted(_positions(self.data, b"+,-.")), np.int64)
        tf = self.tok_first[rows]
        lead, label, rest = (np.searchsorted(odd, self.tok_start[tf + j]) for j in (0, skip, skip + 1))
        return (lead == label) & (rest == np.searchsorted(odd, self.line_end[rows]))

    def numeric_after(self, skip: int) -> np.ndarray:
        """Numeric tokens of each line not counting its first `skip` tokens (vectorised)."""
        out = self.line_numeric.copy()
        first = self.tok_first[:-1]
        count = self.count
        for j in range(skip):
            has = count > j
            out[has] -= self.kind[first[has] + j] == KIND_NUMBER
        return out

    def numeric_before_last(self, last: int) -> np.ndarray:
        """Numeric tokens of each line not counting its last `last` tokens."""
        out = self.line_numeric.copy()
        stop = self.tok_first[1:]
        count = self.count
        for j in range(1, last + 1):
            has = count >= j
            out[has] -= self.kind[stop[has] - j] == KIND_NUMBER
        return out


def _positions(data: bytes, chars: bytes) -> list[int]:
    """Where these (rare) bytes are."""
    out = []
    for ch in chars:
        i = data.find(ch)
        while i >= 0:
            out.append(i)
            i = data.find(ch, i + 1)
    return out


def _number_pattern(decimal: bytes) -> re.Pattern[bytes]:
    d = re.escape(decimal)
    return re.compile(rb"[-+]?(?:[0-9]+(?:" + d + rb"[0-9]*)?|" + d + rb"[0-9]+)")


def tokenize_py(data: bytes, decimal: str = ".") -> Tokens:
    """Pure-Python twin of the compiled scanner (same arrays, same number syntax)."""
    number = _number_pattern(decimal.encode())
    line_start: list[int] = []
    line_end: list[int] = []
    line_numeric: list[int] = []
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
        numeric = 0
        for j, m in enumerate(_TOKEN.finditer(data, pos, stop)):
            tok = m.group()
            starts.append(m.start())
            ends.append(m.end())
            is_number = number.fullmatch(tok) is not None
            hashes.append(fnv1a(tok) if not is_number or j < HASHED_LEADING else 0)
            if is_number:
                digits = sum(c in b"0123456789" for c in tok)
                kinds.append(KIND_NUMBER if digits <= 15 else KIND_SLOW_NUMBER)
                numeric += 1
                vals.append(float(tok.replace(decimal.encode(), b".")) if digits <= 15 else float("nan"))
            else:
                kinds.append(KIND_TEXT)
                vals.append(float("nan"))
        end = stop - 1 if stop > pos and data[stop - 1 : stop] == b"\r" else stop
        line_end.append(end)
        line_numeric.append(numeric)
        pos = stop + 1
        if nl < 0:
            break
    tok_first.append(len(starts))
    return Tokens(
        data,
        np.array(line_start, np.int64),
        np.array(line_end, np.int64),
        np.array(line_numeric, np.int64),
        np.array(tok_first, np.int64),
        np.array(starts, np.int64),
        np.array(ends, np.int64),
        np.array(vals, np.float64),
        np.array(kinds, np.uint8),
        np.array(hashes, np.uint64),
    )


class Buffers:
    """Output arrays of the compiled scanner, reused from chunk to chunk: allocating fresh ones
    costs more in page faults than the scan itself."""

    def __init__(self) -> None:
        self.lines = 0
        self.cap = 0
        self.arrays: tuple[np.ndarray, ...] = ()

    def ensure(self, lines: int, cap: int) -> tuple[np.ndarray, ...]:
        if lines > self.lines or cap > self.cap:
            # Grown to the next power of two: the reader's chunks are 4 MiB plus the rest of a line, each
            # a few bytes longer or shorter than the others, and growing to just what one asks made the
            # buffers again whenever a chunk beat all before it (fresh pages each time: 35k of a 2M-line
            # diskstats import's 100k page faults). Capacity a chunk does not use costs no memory (_mapped).
            lines, cap = (1 << (max(x, 1) - 1).bit_length() for x in (lines, cap))
            self.lines, self.cap = max(lines, self.lines), max(cap, self.cap)
            n, c = self.lines, self.cap
            self.arrays = ()  # the old maps go before the new ones are made
            self.arrays = (
                _mapped(n, np.int64),
                _mapped(n, np.int64),
                _mapped(n, np.int64),
                _mapped(n + 1, np.int64),
                _mapped(c, np.int64),
                _mapped(c, np.int64),
                _mapped(c, np.float64),
                _mapped(c, np.uint8),
                _mapped(c, np.uint64),
            )
        return self.arrays


def _mapped(n: int, dtype: type[np.generic]) -> np.ndarray:
    """An array in its own anonymous memory map: the capacity a chunk does not use is never in
    memory (malloc would hand out pages other chunks' bytes touched before, and keep them)."""
    size = max(n * np.dtype(dtype).itemsize, 1)
    return np.frombuffer(mmap.mmap(-1, size), dtype, count=n)


def tokenize_c(data: bytes, decimal: str = ".", buffers: Buffers | None = None) -> Tokens:
    """Scan with the compiled core. With `buffers`, the returned arrays are views into them and
    are overwritten by the next call that uses the same buffers."""
    if _scan is None:
        raise RuntimeError("the compiled scanner is not built")
    buffers = buffers or Buffers()
    lines = len(data) // 16 + 64  # monitor lines are longer than 16 bytes; retried exactly if not
    cap = len(data) // 4 + 16
    while True:
        ls, le, ln, tf, ts, te, tv, tk, th = buffers.ensure(lines, cap)
        nl, nt = _scan.tokenize(data, ord(decimal), ls, le, ln, tf, ts, te, tv, tk, th)
        if nl >= 0:
            break
        lines = data.count(b"\n") + 1
        cap = len(data) // 2 + 16  # the worst case: one-character tokens
    return Tokens(data, ls[:nl], le[:nl], ln[:nl], tf[: nl + 1], ts[:nt], te[:nt], tv[:nt], tk[:nt], th[:nt])


def tokenize(data: bytes, decimal: str = ".", buffers: Buffers | None = None) -> Tokens:
    """Scan complete lines; long numbers the fast path declined are converted here."""
    toks = tokenize_c(data, decimal, buffers) if _scan is not None else tokenize_py(data, decimal)
    slow = np.flatnonzero(toks.kind == KIND_SLOW_NUMBER)
    for t in slow:
        raw = toks.data[toks.tok_start[t] : toks.tok_end[t]].replace(decimal.encode(), b".")
        toks.val[t] = float(raw)
        toks.kind[t] = KIND_NUMBER
    return toks


def tokenized(chunks: Iterator[bytes], decimal: str = ".", depth: int = 1) -> Iterator[tuple[Tokens, int]]:
    """(tokens, number of the chunk's first line) for each chunk, in a pipeline of two threads
    beside the caller: one reads (and hashes) the chunks, one scans them, each ahead of the next
    stage. Reading, hashing and the compiled scan release the GIL, so they run beside each other
    and the caller's numpy and SQLite work (a 2M-line diskstats file: reading and hashing take
    0.25 s CPU, scanning 0.42 s, the importer's rows 0.3-0.45 s; with reading and scanning in one
    thread, that thread was the slowest stage). At most `depth` scanned chunks wait in the queue.
    The token arrays are recycled once the caller asks for the next chunk: copy what you keep."""
    # Chunk k is scanned into its ring buffer once chunk k-1 is queued, so once the caller has taken
    # chunk k-1-depth: the caller may still use that one, `depth` wait, k is being filled. The buffer
    # of k-2-depth, which k reuses, was let go when the caller asked for the one after it.
    ring = [Buffers() for _ in range(depth + 2)]

    def scanned() -> Iterator[Tokens]:
        with contextlib.closing(ahead(chunks, 2, "benchlens-read")) as read:
            for k, data in enumerate(read):
                yield tokenize(data, decimal, ring[k % len(ring)])

    line = 1
    with contextlib.closing(ahead(scanned(), depth, "benchlens-tokenize")) as scans:
        for toks in scans:
            yield toks, line
            line += toks.n_lines


T = TypeVar("T")
_END = object()


def ahead(
    items: Iterable[T], depth: int = 1, name: str = "benchlens-ahead", size: Callable[[T], int] | None = None
) -> Generator[T, None, None]:
    """The items, made by a thread of their own ahead of the caller: at most `depth` of them wait,
    or with `size` (an item's bytes), as many as `depth` bytes hold (one always may). They are made
    in the caller's context (numpy's error state and other context variables); what making them
    raises is raised here, at its place among them. When the caller stops early (close() this
    iterator: contextlib.closing), the thread stops once the item it is making is made (waited for
    up to 5 s, as a file being read may hang) and closes their generator."""
    source = iter(items)
    q: queue.SimpleQueue[tuple[Any, int, BaseException | None]] = queue.SimpleQueue()
    room = threading.Condition()
    waiting = 0  # items (or bytes) made and not yet taken
    stop = threading.Event()

    def put(item: Any, weight: int, err: BaseException | None = None) -> bool:
        nonlocal waiting
        with room:
            while waiting and waiting + weight > depth and not stop.is_set():
                room.wait(0.1)
            if stop.is_set():
                return False
            waiting += weight
        q.put((item, weight, err))
        return True

    def produce() -> None:
        try:
            for item in source:
                if not put(item, 1 if size is None else size(item)):
                    return
            put(_END, 0)
        except BaseException as e:  # handed to the caller, raised there
            put(_END, 0, e)
        finally:
            close = getattr(source, "close", None)
            if close is not None:
                close()

    worker = threading.Thread(target=contextvars.copy_context().run, args=(produce,), name=name, daemon=True)
    worker.start()
    try:
        while True:
            item, weight, err = q.get()
            with room:
                waiting -= weight
                room.notify()
            if err is not None:
                raise err
            if item is _END:
                return
            yield item
    finally:
        stop.set()
        worker.join(timeout=5)


HAS_COMPILED_CORE = _scan is not None
