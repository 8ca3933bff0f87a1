"""Streaming input: chunks of complete lines, a bounded head for sniffing, text checks.

The reader hashes every byte it reads (the source's sha256 covers the whole file, whatever the
importer makes of it) and never hands on what cannot be trusted: a last line without a newline
(the file was cut; "32.80" cut to "3" must not become a value) and lines longer than MAX_LINE
are left out, with a note for the user.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO

CHUNK = 4 << 20
HEAD = 64 << 10
MAX_LINE = 1 << 20  # a "line" longer than this is not a monitor's output


@dataclass
class Reading:
    """What the reader reports besides the lines: bytes read, the running hash, notes."""

    on_read: Callable[[int], None] | None = None
    sha: Any = None  # a hashlib object, updated with every byte read
    notes: list[str] = field(default_factory=list)
    done: int = 0

    def _got(self, data: bytes) -> bytes:
        self.done += len(data)
        if self.sha is not None:
            self.sha.update(data)
        if self.on_read is not None:
            self.on_read(self.done)
        return data

    def read(self, f: BinaryIO, size: int) -> bytes:
        return self._got(f.read(size))

    def readline(self, f: BinaryIO, limit: int) -> bytes:
        return self._got(f.readline(limit))

    def skip_line(self, f: BinaryIO) -> None:
        while True:
            part = self.readline(f, MAX_LINE)
            if not part or part.endswith(b"\n"):
                return

    def drain(self, f: BinaryIO) -> None:
        """Read the rest (for the hash) when an importer stopped early."""
        while self.read(f, CHUNK):
            pass


def chunks(f: BinaryIO, reading: Reading | None = None, size: int = CHUNK) -> Iterator[bytes]:
    """Yield pieces of the file that end at a newline: a block plus the rest of its last line."""
    r = reading or Reading()
    first = True
    while True:
        block = r.read(f, size)
        if not block:
            return
        if first and block.startswith(codecs.BOM_UTF8):
            block = block[3:]
        first = False
        if not block.endswith(b"\n"):
            rest = r.readline(f, MAX_LINE + 1)
            if len(rest) > MAX_LINE and not rest.endswith(b"\n"):
                cut = block.rfind(b"\n") + 1
                r.notes.append(f"a line longer than {MAX_LINE >> 20} MiB near byte {r.done - len(rest)} was skipped")
                r.skip_line(f)
                if cut:
                    yield block[:cut]
                continue
            block += rest
        if not block.endswith(b"\n"):  # end of file inside a line
            cut = block.rfind(b"\n") + 1
            tail = block[cut:]
            if cut:
                yield block[:cut]
            if tail.strip():
                shown = tail[:60].decode("utf-8", "replace")
                r.notes.append(f"the last line has no newline (the file was cut?) and was not read: {shown!r}")
            return
        yield block


def _mostly_zero(b: bytes) -> bool:
    return len(b) > 16 and b.count(0) > len(b) * 0.9


def _mostly_nonzero(b: bytes) -> bool:
    return len(b) > 16 and b.count(0) < len(b) * 0.1


def prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    """The chunks again after an importer peeked at the first one."""
    yield first
    yield from rest


def looks_binary(raw: bytes) -> str | None:
    """Why these first bytes are not a monitor's text output, or None when they look like text.
    NUL bytes alone do not make a capture binary: a crash or a power loss leaves zero-filled
    blocks in text files, and those lines are reported one by one by the importer."""
    if raw.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)) or (
        _mostly_nonzero(raw[0::4]) and _mostly_zero(raw[1::4]) and _mostly_zero(raw[2::4]) and _mostly_zero(raw[3::4])
    ):
        return "UTF-32 text (convert it to UTF-8, e.g. iconv -f UTF-32 -t UTF-8)"
    even, odd = raw[0::2], raw[1::2]
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or (
        (_mostly_nonzero(even) and odd.count(0) > len(odd) * 0.4)
        or (_mostly_nonzero(odd) and even.count(0) > len(even) * 0.4)
    ):
        return "UTF-16 text (convert it to UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"
    text = raw.replace(b"\x00", b"")
    if not text.strip():
        return "no text (only NUL bytes)" if raw else None
    control = sum(text.count(bytes([c])) for c in (*range(1, 9), *range(14, 27), *range(28, 32)))
    if control > max(8, len(text) // 100):
        return "binary file"
    return None


def decode_head(raw: bytes) -> str | None:
    """The head as text, or None when it is not text we read (binary, UTF-16 ...)."""
    if not raw:
        return ""
    if looks_binary(raw):
        return None
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start >= len(raw) - 4:  # a multi-byte character cut by the head limit
            return raw[: e.start].decode("utf-8", "replace")
        return raw.decode("latin-1")  # old captures in ISO-8859 locales: labels only, numbers are ASCII
