"""Series values as BLOBs: int32 counts of 10^-k when that gives back the very same doubles
(monitors print integers or two decimals: half the bytes to write), else float64."""

from __future__ import annotations

import numpy as np

_INT32 = 2.0**31 - 1


def encode(v: np.ndarray) -> tuple[bytes, int]:
    """Values as int32 counts of 10^-k when decode() gives back the very same doubles, else float64."""
    for k in (2, 0):
        scaled = np.rint(v * 10.0**k)
        if scaled.size and np.abs(scaled).max() <= _INT32 and np.array_equal(scaled / 10.0**k, v):
            return scaled.astype("<i4").tobytes(), k
    return v.astype("<f8").tobytes(), -1


def decode(blob: bytes, scale: int) -> np.ndarray:
    if scale < 0:
        return np.frombuffer(blob, "<f8")
    return np.frombuffer(blob, "<i4") / 10.0**scale
