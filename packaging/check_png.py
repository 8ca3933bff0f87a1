"""Check that a PNG is valid and not trivial (standard library only: any python3 >= 3.10).

    python3 packaging/check_png.py FILE.png [--min-size WxH] [--min-colours N] [--min-ink F]

Valid: signature, every chunk's CRC, IHDR, IDAT that inflates to exactly the image's scanlines
with valid filter bytes. Not trivial: at least the given size, at least N distinct colours, and at
least a fraction F of the pixels differing from the most common (background) colour. Prints one
line of facts; exit code 1 with the reason otherwise.
"""

from __future__ import annotations

import argparse
import struct
import sys
import zlib
from collections import Counter

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


def _chunks(data: bytes):
    pos = len(SIGNATURE)
    while pos < len(data):
        if pos + 12 > len(data):
            raise ValueError("truncated chunk header")
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            raise ValueError(f"truncated {kind!r} chunk")
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) & 0xFFFFFFFF != crc:
            raise ValueError(f"bad CRC in {kind!r} chunk")
        yield kind, body
        pos += 12 + length
        if kind == b"IEND":
            return
    raise ValueError("no IEND chunk")


def _unfilter(raw: bytes, width: int, height: int, bpp: int) -> list[bytes]:
    stride = width * bpp
    if len(raw) != height * (stride + 1):
        raise ValueError(f"image data is {len(raw)} bytes, expected {height * (stride + 1)}")
    rows: list[bytes] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        ftype = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        if ftype == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 0xFF
        elif ftype == 2:
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prev, strict=True))
        elif ftype == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif ftype == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b = prev[i]
                c = prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        elif ftype != 0:
            raise ValueError(f"row {y}: bad filter type {ftype}")
        rows.append(bytes(line))
        prev = line
    return rows


def check(path: str, min_w: int, min_h: int, min_colours: int, min_ink: float) -> str:
    with open(path, "rb") as f:
        data = f.read()
    if not data.startswith(SIGNATURE):
        raise ValueError("not a PNG (bad signature)")
    header = None
    idat = []
    for kind, body in _chunks(data):
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None or not idat:
        raise ValueError("no IHDR or no IDAT chunk")
    width, height, depth, ctype, _comp, _filt, interlace = header
    if depth != 8 or ctype not in CHANNELS or interlace:
        raise ValueError(f"unexpected format (depth {depth}, colour type {ctype}, interlace {interlace})")
    if width < min_w or height < min_h:
        raise ValueError(f"{width}x{height} is smaller than {min_w}x{min_h}")
    bpp = CHANNELS[ctype]
    rows = _unfilter(zlib.decompress(b"".join(idat)), width, height, bpp)
    pixels: Counter[bytes] = Counter()
    for row in rows[:: max(1, height // 300)]:  # every row of small images, ~300 rows of big ones
        pixels.update(row[i : i + bpp] for i in range(0, len(row), bpp))
    total = sum(pixels.values())
    _background, count = pixels.most_common(1)[0]
    ink = 1 - count / total
    facts = f"{width}x{height}, {len(data)} bytes, {len(pixels)} colours, {ink:.1%} non-background"
    if len(pixels) < min_colours:
        raise ValueError(f"{facts}: fewer than {min_colours} colours (blank?)")
    if ink < min_ink:
        raise ValueError(f"{facts}: less than {min_ink:.1%} of the pixels differ from the background (blank?)")
    return facts


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("png")
    p.add_argument("--min-size", default="100x100", metavar="WxH")
    p.add_argument("--min-colours", type=int, default=16)
    p.add_argument("--min-ink", type=float, default=0.02, metavar="FRACTION")
    args = p.parse_args()
    w, h = (int(x) for x in args.min_size.lower().split("x"))
    try:
        print(f"{args.png}: {check(args.png, w, h, args.min_colours, args.min_ink)}")
    except (OSError, ValueError, zlib.error) as e:
        print(f"check_png: {args.png}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
