"""Streaming input: chunks of complete lines, a bounded head for sniffing, text checks.

The reader hashes every byte it reads (the source's sha256 covers the whole file, whatever the
importer makes of it) and never hands on what cannot be trusted: a last line without a newline
(the file was cut; "32.80" cut to "3" must not become a value) and lines longer than MAX_LINE
are left out, with a note for the user. A JSON object (its first byte `{`) keeps its last line:
its parser refuses a cut document whole. (Not `[`: an option file's section starts so.)

Compressed captures (gzip, xz, bzip2, and zstd when a zstd module is importable) are recognised
by their magic bytes, never by their names, and decompressed as they stream: the hash and the
progress count the file's own (compressed) bytes, the importers see the text. Decompression is
bounded (MAX_RATIO past RATIO_FROM, MAX_OUTPUT in all, MEMLIMIT for xz and zstd windows): past a bound, or on
corrupt data, reading raises UnreadableCapture and nothing of the file may be kept. A compressed
stream that simply stops (the file was cut) is read like a cut text file: its complete lines.
"""

from __future__ import annotations

import bz2
import codecs
import lzma
import re
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, BinaryIO, Protocol

from benchlens.importers._types import SourceWarning

CHUNK = 4 << 20
HEAD = 64 << 10
MAX_LINE = 1 << 20  # a "line" longer than this is not a monitor's output

RAW_BLOCK = 256 << 10  # compressed bytes read at a time
# Past RATIO_FROM of output, more than MAX_RATIO times the compressed bytes read is refused. Measured
# on captures: busy ones compress 3-50x; an idle `iostat -x` of 100 devices (rows of zeros) 100x
# with gzip -9, 600x bzip2, 1100-1200x xz and zstd -19. A gigabyte of zeros compresses 1030x
# with gzip (deflate's ceiling), ~7000x xz, ~30000x zstd, millions x bzip2.
MAX_RATIO = {"gzip": 500, "bzip2": 5000, "xz": 5000, "zstd": 5000}
RATIO_FROM = 64 << 20
MAX_OUTPUT = 16 << 30  # no single capture is bigger than this
MEMLIMIT = 256 << 20  # xz dictionaries: `xz -9` needs 65 MiB


class UnreadableCapture(Exception):
    """The file's bytes cannot be trusted or read here (corrupt or unbounded compressed data, a
    compression this Python cannot read): a one-line reason. Nothing of the file may be kept."""


@dataclass
class Reading:
    """What the reader reports besides the lines: bytes read, the running hash, notes (warnings
    about the file as a whole: a cut last line, a huge line)."""

    on_read: Callable[[int], None] | None = None
    sha: Any = None  # a hashlib object, updated with every byte read
    notes: list[SourceWarning] = field(default_factory=list)
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

    def drain(self, f: BinaryIO) -> None:
        """Read the rest (for the hash) when an importer stopped early."""
        while self.read(f, CHUNK):
            pass


# ---- compression --------------------------------------------------------------------------------

_BZIP2 = re.compile(rb"BZh[1-9](1AY&SY|\x17rE8P\x90)")


def compression(raw: bytes) -> str | None:
    """The compression of a file from its first bytes (never from its name), or None."""
    if raw.startswith(b"\x1f\x8b\x08"):
        return "gzip"
    if raw.startswith(b"\xfd7zXZ\x00"):
        return "xz"
    if raw.startswith(b"\x28\xb5\x2f\xfd"):
        return "zstd"
    if _BZIP2.match(raw):
        return "bzip2"
    return None


class _Codec(Protocol):
    """The decompressor shape of lzma/bz2 (and compression.zstd): max_length bounds the output."""

    @property
    def eof(self) -> bool: ...
    @property
    def unused_data(self) -> bytes: ...
    @property
    def needs_input(self) -> bool: ...
    def decompress(self, data: bytes, max_length: int = -1) -> bytes: ...


class _Gzip:
    """zlib's gzip decompressor in the lzma/bz2 shape (checks the CRC and size of each member)."""

    def __init__(self) -> None:
        self.d = zlib.decompressobj(16 + zlib.MAX_WBITS)

    @property
    def eof(self) -> bool:
        return self.d.eof

    @property
    def unused_data(self) -> bytes:
        return self.d.unused_data

    @property
    def needs_input(self) -> bool:
        return not self.d.unconsumed_tail

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        return self.d.decompress(self.d.unconsumed_tail + data, max(max_length, 0))


class _Zstandard:
    """python-zstandard's decompressobj, whose output per call is unbounded (4 bytes of an RLE block
    make 128 KiB): fed PIECE bytes at a time, one call makes at most ~32 MiB."""

    PIECE = 1024

    def __init__(self, module: Any) -> None:
        self.d = module.ZstdDecompressor(max_window_size=MEMLIMIT).decompressobj()
        self.pending = b""

    @property
    def eof(self) -> bool:
        return bool(self.d.eof)

    @property
    def unused_data(self) -> bytes:
        return bytes(self.d.unused_data) + self.pending

    @property
    def needs_input(self) -> bool:
        return not self.pending

    def decompress(self, data: bytes, max_length: int = -1) -> bytes:
        self.pending += data
        piece, self.pending = self.pending[: self.PIECE], self.pending[self.PIECE :]
        return bytes(self.d.decompress(piece))


def _zstd_codec() -> _Codec | None:
    try:
        from compression import zstd  # type: ignore[import-not-found]  # Python 3.14+

        return zstd.ZstdDecompressor()  # type: ignore[no-any-return]
    except ImportError:
        pass
    try:
        import zstandard  # type: ignore[import-not-found]
    except ImportError:
        return None
    return _Zstandard(zstandard)


def _codec(kind: str) -> _Codec:
    if kind == "gzip":
        return _Gzip()
    if kind == "xz":
        return lzma.LZMADecompressor(lzma.FORMAT_XZ, memlimit=MEMLIMIT)
    if kind == "bzip2":
        return bz2.BZ2Decompressor()
    codec = _zstd_codec()
    if codec is None:
        raise UnreadableCapture(
            "zstd-compressed, and this Python has no zstd support: decompress it first (unzstd FILE), "
            "or install the zstandard package"
        )
    return codec


def _size(n: int) -> str:
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):.3g} {unit}"
    return f"{n} bytes"


class Decompressed:
    """The decompressed bytes of a compressed stream, read as a file (read, readline), bounded."""

    def __init__(self, kind: str, raw_read: Callable[[int], bytes]) -> None:
        self.kind = kind
        self.raw_read = raw_read
        self.codec = _codec(kind)
        self.buf = bytearray()
        self.raw_in = 0  # compressed bytes read
        self.out = 0  # decompressed bytes made
        self.ended = False
        self.truncated = False

    def _raw(self) -> bytes:
        data = self.raw_read(RAW_BLOCK)
        self.raw_in += len(data)
        return data

    def _fail(self, e: Exception) -> UnreadableCapture:
        if isinstance(e, lzma.LZMAError) and "memory" in str(e).lower():
            return UnreadableCapture(
                f"xz data that needs more than {_size(MEMLIMIT)} of memory to decompress: "
                "decompress it first (xz -d FILE)"
            )
        return UnreadableCapture(f"corrupt {self.kind} data after {self.out} decompressed bytes ({e})")

    def _more(self, want: int) -> bool:
        """Decompress up to about `want` more bytes into the buffer; False at the end."""
        while not self.ended:
            if self.codec.eof:  # one member/stream/frame done: another may follow (cat a.gz b.gz)
                data = self.codec.unused_data.lstrip(b"\0")  # zero padding after a member
                while not data:
                    more = self._raw()
                    if not more:
                        self.ended = True
                        return False
                    data = more.lstrip(b"\0")
                self.codec = self._call(_codec, self.kind)
            elif self.codec.needs_input:
                data = self._raw()
                if not data:  # the stream stops inside a member: the file was cut
                    self.ended = self.truncated = True
                    return False
            else:
                data = b""
            out = self._call(self.codec.decompress, data, want)
            if out:
                self.out += len(out)
                self._check()
                self.buf += out
                return True
        return False

    def _call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A decompressor call, its errors turned into UnreadableCapture."""
        try:
            return fn(*args)
        except UnreadableCapture:
            raise
        except (zlib.error, lzma.LZMAError, OSError, EOFError, ValueError) as e:
            raise self._fail(e) from None
        except Exception as e:  # zstandard.ZstdError derives from Exception only
            if type(e).__name__ != "ZstdError":
                raise
            raise self._fail(e) from None

    def _check(self) -> None:
        if self.out > MAX_OUTPUT:
            raise UnreadableCapture(
                f"{self.kind} data that decompresses to more than {_size(MAX_OUTPUT)}: refused "
                "(decompress it yourself if it is a genuine capture)"
            )
        limit = MAX_RATIO[self.kind]
        if self.out > RATIO_FROM and self.out > limit * max(self.raw_in, 1):
            raise UnreadableCapture(
                f"{self.kind} data that decompresses to over {limit}x its size ({_size(self.out)} from "
                f"{_size(self.raw_in)}): refused as a likely decompression bomb "
                "(decompress it yourself if it is a genuine capture)"
            )

    def read(self, size: int) -> bytes:
        """`size` bytes, fewer only at the end."""
        while len(self.buf) < size and self._more(size - len(self.buf)):
            pass
        out = bytes(self.buf[:size])
        del self.buf[:size]
        return out

    def readline(self, limit: int) -> bytes:
        """One line with its newline, at most `limit` bytes (less at the end)."""
        scanned = 0
        while True:
            nl = self.buf.find(b"\n", scanned, limit)
            if nl >= 0:
                return self.read(nl + 1)
            scanned = len(self.buf)
            if scanned >= limit or not self._more(max(limit - scanned, RAW_BLOCK)):
                return self.read(limit)


class _Plain:
    """The file itself, after the first block read to look for a compression magic."""

    def __init__(self, f: BinaryIO, r: Reading, first: bytes) -> None:
        self.f, self.r, self.pending = f, r, first
        self.truncated = False

    def read(self, size: int) -> bytes:
        if self.pending:
            out, self.pending = self.pending[:size], self.pending[size:]
            return out if len(out) == size else out + self.r.read(self.f, size - len(out))
        return self.r.read(self.f, size)

    def readline(self, limit: int) -> bytes:
        if self.pending:
            nl = self.pending.find(b"\n", 0, limit)
            cut = nl + 1 if nl >= 0 else min(limit, len(self.pending))
            out, self.pending = self.pending[:cut], self.pending[cut:]
            if out.endswith(b"\n") or len(out) >= limit:
                return out
            return out + self.r.readline(self.f, limit - len(out))
        return self.r.readline(self.f, limit)


def _open(f: BinaryIO, r: Reading, size: int) -> tuple[_Plain | Decompressed, str | None]:
    first = r.read(f, size)
    kind = compression(first)
    if kind is None:
        return _Plain(f, r, first), None
    pending = [first]

    def raw_read(n: int) -> bytes:
        return pending.pop() if pending else r.read(f, n)

    return Decompressed(kind, raw_read), kind


def read_head(f: BinaryIO, size: int) -> tuple[bytes, str | None]:
    """The first `size` bytes of the text (decompressed if the file is compressed) and the
    compression. Raises UnreadableCapture (corrupt data, no zstd module)."""
    src, kind = _open(f, Reading(), size)
    return src.read(size), kind


def chunks(f: BinaryIO, reading: Reading | None = None, size: int = CHUNK) -> Iterator[bytes]:
    """Yield pieces of the file that end at a newline: a block plus the rest of its last line.
    A compressed file is decompressed as it streams (see the module notes)."""
    r = reading or Reading()
    src, kind = _open(f, r, size)
    first, json_doc = True, False
    pos = 0  # offset in the text of the next byte read
    while True:
        block = src.read(size)
        if not block:
            break
        pos += len(block)
        if first and block.startswith(codecs.BOM_UTF8):
            block = block[3:]
        if first:
            # a JSON object is checked whole by its parser (a cut one does not parse): its last
            # line needs no newline to be trusted (`}` of a benchlens-run.json written by hand)
            json_doc = block.lstrip()[:1] == b"{"
        first = False
        if not block.endswith(b"\n"):
            rest = src.readline(MAX_LINE + 1)
            pos += len(rest)
            if len(rest) > MAX_LINE and not rest.endswith(b"\n"):
                cut = block.rfind(b"\n") + 1
                start = pos - len(rest) - (len(block) - cut)  # where the long line begins in the text
                r.notes.append(
                    SourceWarning(None, "limit", f"a line longer than {MAX_LINE >> 20} MiB at byte {start} was skipped")
                )
                while True:  # the rest of the long line
                    part = src.readline(MAX_LINE)
                    pos += len(part)
                    if not part or part.endswith(b"\n"):
                        break
                if cut:
                    yield block[:cut]
                continue
            block += rest
        if not block.endswith(b"\n"):  # end of file inside a line
            cut = block.rfind(b"\n") + 1
            tail = block[cut:]
            if cut:
                yield block[:cut]
            if tail.strip() and json_doc:
                yield tail + b"\n"
            elif tail.strip():
                shown = tail[:60].decode("utf-8", "replace")
                text = f"the last line has no newline (the file was cut?) and was not read: {shown!r}"
                r.notes.append(SourceWarning(None, "truncated", text))
            break
        yield block
    if src.truncated:
        text = f"the {kind} data ends early (the file was cut?): the complete lines before the cut were read"
        r.notes.append(SourceWarning(None, "truncated", text))


def _mostly_zero(b: bytes) -> bool:
    return len(b) > 16 and b.count(0) > len(b) * 0.9


def _mostly_nonzero(b: bytes) -> bool:
    return len(b) > 16 and b.count(0) < len(b) * 0.1


def prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    """The chunks again after an importer peeked at the first one."""
    yield first
    yield from rest


# Containers and compressions read elsewhere: a clear reason instead of "binary file".
_ARCHIVES = (
    (b"PK\x03\x04", "a zip archive (extract it first)"),
    (b"7z\xbc\xaf\x27\x1c", "a 7z archive (extract it first)"),
    (b"\x1f\x9d", "compress (.Z) data (decompress it first: uncompress FILE)"),
    (b"\x04\x22\x4d\x18", "lz4-compressed data (decompress it first: lz4 -d FILE)"),
    (b"\x89LZO", "lzop-compressed data (decompress it first: lzop -d FILE)"),
    (b"LZIP", "lzip-compressed data (decompress it first: lzip -d FILE)"),
)


def looks_binary(raw: bytes) -> str | None:
    """Why these first bytes are not a monitor's text output, or None when they look like text.
    NUL bytes alone do not make a capture binary: a crash or a power loss leaves zero-filled
    blocks in text files, and those lines are reported one by one by the importer."""
    for magic, what in _ARCHIVES:
        if raw.startswith(magic):
            return what
    if raw[257:262] == b"ustar":
        return "a tar archive (extract it first)"
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
