"""Streaming input: chunks of complete lines, a bounded head for sniffing, text checks."""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from typing import BinaryIO

CHUNK = 4 << 20
HEAD = 64 << 10
MAX_LINE = 1 << 20  # a "line" longer than this is not a monitor's output


class LineTooLong(Exception):
    pass


def chunks(
    f: BinaryIO, on_read: Callable[[int], None] | None = None, size: int = CHUNK, partial: list[bytes] | None = None
) -> Iterator[bytes]:
    """Yield pieces of the file that end at a newline (a block plus the rest of its last line). A
    final line without a newline is yielded too, and reported through `partial` (the caller warns
    that it was cut)."""
    done = 0
    first = True
    while True:
        block = f.read(size)
        if not block:
            break
        if first and block.startswith(codecs.BOM_UTF8):
            block = block[3:]
        first = False
        if not block.endswith(b"\n"):
            rest = f.readline(MAX_LINE + 1)
            if len(rest) > MAX_LINE:
                raise LineTooLong(f"a line longer than {MAX_LINE >> 20} MiB near byte {done + len(block)}")
            block += rest
        done += len(block)
        if on_read is not None:
            on_read(done)
        if not block.endswith(b"\n"):
            cut = block.rfind(b"\n") + 1
            if cut:
                yield block[:cut]
            if partial is not None:
                partial.append(block[cut:])
            yield block[cut:]
            break
        yield block


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
