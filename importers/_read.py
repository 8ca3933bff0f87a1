"""Streaming input: chunks of complete lines, a bounded head for sniffing, text checks."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from typing import BinaryIO

CHUNK = 8 << 20
HEAD = 64 << 10
MAX_LINE = 1 << 20  # a "line" longer than this is not a monitor's output


class LineTooLong(Exception):
    pass


def chunks(
    f: BinaryIO, on_read: Callable[[int], None] | None = None, size: int = CHUNK, partial: list[bytes] | None = None
) -> Iterator[tuple[bytes, int]]:
    """Yield (bytes ending at a newline, 1-based number of its first line). A final line without a
    newline is yielded too, and reported through `partial` (the caller warns that it was cut)."""
    carry = b""
    line_no = 1
    done = 0
    while True:
        block = f.read(size)
        done += len(block)
        if on_read is not None:
            on_read(done)
        if not block:
            break
        if line_no == 1 and not carry and block.startswith(codecs.BOM_UTF8):
            block = block[3:]
        buf = carry + block if carry else block
        cut = buf.rfind(b"\n") + 1
        if cut == 0:
            if len(buf) > MAX_LINE:
                raise LineTooLong(f"line {line_no} is longer than {MAX_LINE >> 20} MiB")
            carry = buf
            continue
        piece, carry = buf[:cut], buf[cut:]
        yield piece, line_no
        line_no += piece.count(b"\n")
    if carry:
        if partial is not None:
            partial.append(carry)
        yield carry, line_no


def decode_head(raw: bytes) -> str | None:
    """The head as text, or None when it is not text we read (binary, UTF-16 ...)."""
    if not raw:
        return ""
    if b"\x00" in raw:
        return None
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.start >= len(raw) - 4:  # a multi-byte character cut by the head limit
            return raw[: e.start].decode("utf-8")
        return raw.decode("latin-1")  # old captures in ISO-8859 locales: labels only, numbers are ASCII
