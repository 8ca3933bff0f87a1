"""Series values as BLOBs: int32 counts of 10^-k when that gives back the very same doubles
(monitors print integers or two decimals: half the bytes to write), else float64."""

from __future__ import annotations

import numpy as np

_INT32 = 2.0**31 - 1
_PROBE = 64  # values tried first: a necessary condition, so the result is the full check's


def encode(v: np.ndarray) -> tuple[np.ndarray, int]:
    """Values as int32 counts of 10^-k when decode() gives back the very same doubles, else float64:
    the BLOB's bytes as a contiguous little-endian array (v itself when it is one already; no copy
    into a bytes object, which sqlite3 would copy once more into SQLite)."""
    head = v[:_PROBE]
    for k in (2, 0):
        # most series that do not round-trip show it in their first values: no pass over the rest
        if head.size and not np.array_equal(np.rint(head * 10.0**k) / 10.0**k, head):
            continue
        scaled = np.multiply(v, 10.0**k)
        np.rint(scaled, out=scaled)
        if scaled.size and max(scaled.max(), -scaled.min()) <= _INT32 and np.array_equal(scaled / 10.0**k, v):
            return scaled.astype("<i4"), k
    return np.ascontiguousarray(v, "<f8"), -1


def decode(blob: bytes, scale: int) -> np.ndarray:
    if scale < 0:
        return np.frombuffer(blob, "<f8")
    return np.frombuffer(blob, "<i4") / 10.0**scale
