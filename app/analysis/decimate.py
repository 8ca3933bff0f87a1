"""Peak-preserving decimation for drawing: a min/max pyramid built once per series, so any view
asks for about two points per pixel column, whatever the zoom, and a 1-sample stall (a single
low value) is still drawn at full depth."""

from __future__ import annotations

import numpy as np

FACTOR = 4


class MinMaxPyramid:
    def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
        self.x = np.ascontiguousarray(x, np.float64)
        self.y = np.ascontiguousarray(y, np.float64)
        self.levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (x of bin start, min, max)
        n, size = len(self.x), FACTOR
        while n // size >= 64:
            starts = np.arange(0, n, size)
            with np.errstate(invalid="ignore"):
                lo = np.fmin.reduceat(self.y, starts)  # fmin/fmax skip NaN unless a bin is all NaN
                hi = np.fmax.reduceat(self.y, starts)
            self.levels.append((self.x[starts], lo, hi))
            size *= FACTOR

    def view(self, x0: float, x1: float, pixels: int) -> tuple[np.ndarray, np.ndarray]:
        """Points to draw for the x range [x0, x1] on `pixels` columns (one sample of margin on
        each side so lines leave the view instead of stopping short)."""
        n = len(self.x)
        i0 = max(int(np.searchsorted(self.x, x0, "left")) - 1, 0)
        i1 = min(int(np.searchsorted(self.x, x1, "right")) + 1, n)
        budget = max(2 * pixels, 16)
        if i1 - i0 <= budget or not self.levels:
            return self.x[i0:i1], self.y[i0:i1]
        size = FACTOR
        for k, (bx, lo, hi) in enumerate(self.levels):
            b0, b1 = i0 // size, -(-i1 // size)
            if b1 - b0 <= budget // 2 or k == len(self.levels) - 1:  # the coarsest level is the floor
                xs = np.repeat(bx[b0:b1], 2)
                ys = np.empty(2 * (b1 - b0))
                ys[0::2], ys[1::2] = lo[b0:b1], hi[b0:b1]
                return xs, ys
            size *= FACTOR
        return self.x[i0:i1], self.y[i0:i1]
