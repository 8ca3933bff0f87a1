"""Peak-preserving decimation for drawing: a min/max pyramid built once per series, so any view
asks for about two points per pixel column, whatever the zoom, and a 1-sample stall (a single
low value) is still drawn at full depth. A sample alone between gaps (a p95 printed for the one
second a stalled run completed anything) is drawn as a short dash, `lone_px` wide: a line through
one point draws nothing. Beyond `level_from` samples per pixel (a 4-hour run at 1 s) the min/max
band fills the panel from its floor to its peaks: `level` gives the line to draw over it, the
median of each bin (a median of medians up the pyramid), and the band is drawn light. A rate made
of two snapshots of a counter (SHOW GLOBAL STATUS every 2 s) is drawn as a step over the interval it
covers (`as_steps`), not as a point at the later snapshot: a lock wait is not drawn after the lock."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.model import SeriesRef

# formats whose rates are differences of counter snapshots taken every few seconds
SNAPSHOT_FORMATS = ("global_status", "perfschema", "innodb_mutex", "procvmstat", "diskstats", "procstat")


@dataclass(frozen=True)
class PyramidParams:
    # each level's bins hold this many samples of the level below; chosen by hand, not measured
    factor: int = 4
    # no level has fewer bins than this; chosen by hand, not measured
    min_bins: int = 64
    # points drawn per pixel column: a bin's min and max. With this the pyramid answered pan/zoom
    # in a median 44-47 ms against 65-98 ms for pyqtgraph's peak mode (commit e1d4a0b)
    points_per_pixel: int = 2
    # a view of very few pixels still gets this many points; chosen by hand, not measured
    min_points: int = 16
    # a lone sample's dash, in pixels: as wide as a 1 s sample of a 200 s run on 1000 px
    lone_px: float = 4.0
    # samples per pixel column from which the level line is drawn over a light min/max band: at
    # 2-4 the band is still the curve's own zigzag; a 4 h run at 1 s on 1000 px is 14
    level_from: float = 4.0
    # samples a bin's median is read from (`MinMaxPyramid.medians`); chosen by hand
    median_samples: int = 32


PYRAMID = PyramidParams()


class MinMaxPyramid:
    def __init__(self, x: np.ndarray, y: np.ndarray, params: PyramidParams = PYRAMID) -> None:
        self.x = np.ascontiguousarray(x, np.float64)
        self.y = np.ascontiguousarray(y, np.float64)
        self.params = params
        self.levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (x of bin start, min, max)
        self._medians: dict[int, np.ndarray] = {}  # a level's bin medians, made when first drawn
        lo, hi = self.y, self.y
        for size in _sizes(len(self.x), params):
            # each level from the one below (a bin's extreme is the extreme of its sub-bins'):
            # 0.3 against 1.8 ms for 86,400 points when every level was reduced from the samples
            lo, hi = _binned(lo, params.factor, np.fmin), _binned(hi, params.factor, np.fmax)
            self.levels.append((self.x[::size], lo, hi))

    def medians(self, k: int) -> np.ndarray:
        """Level k's bin medians, made on first use (most views never ask) and from at most
        `median_samples` samples a bin, evenly spread: the level of a bin of 256 noisy samples is
        read as well from 32 of them, at an eighth of the cost (2.7 ms for 86,400 samples made
        the first paint of bench/ui_speed.py 50 ms slower)."""
        if k not in self._medians:
            size = _sizes(len(self.y), self.params)[k]
            self._medians[k] = _medians(self.y, size, max(1, size // self.params.median_samples))
        return self._medians[k]

    def view(self, x0: float, x1: float, pixels: int) -> tuple[np.ndarray, np.ndarray]:
        """Points to draw for the x range [x0, x1] on `pixels` columns (one sample of margin on
        each side so lines leave the view instead of stopping short)."""
        i0, i1, size, b0, b1 = _window(self.x, x0, x1, pixels, self.params)
        if not size:
            return lone_dashes(self.x[i0:i1], self.y[i0:i1], self.params.lone_px * (x1 - x0) / max(pixels, 1))
        bx, lo, hi = self.levels[_sizes(len(self.x), self.params).index(size)]
        return lone_dashes(*_points(bx[b0:b1], lo[b0:b1], hi[b0:b1]), self.params.lone_px * (x1 - x0) / max(pixels, 1))

    def level(self, x0: float, x1: float, pixels: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The level line over [x0, x1] (each bin's median, at the bin's middle) when the view holds
        more than `level_from` samples per pixel; None when the samples are few enough to read."""
        i0, i1, size, b0, b1 = _window(self.x, x0, x1, pixels, self.params)
        if not size or (i1 - i0) < self.params.level_from * pixels:
            return None
        k = _sizes(len(self.x), self.params).index(size)
        bx = self.levels[k][0][b0:b1]
        mids = bx + np.diff(np.append(bx, self.x[min(b1 * size, len(self.x) - 1)])) / 2
        return mids, self.medians(k)[b0:b1]


def minmax_view(
    x: np.ndarray, y: np.ndarray, x0: float, x1: float, pixels: int, params: PyramidParams = PYRAMID
) -> tuple[np.ndarray, np.ndarray]:
    """MinMaxPyramid(x, y).view(x0, x1, pixels), the same points, for one view (an export): only
    the bins of that view are reduced."""
    x = np.ascontiguousarray(x, np.float64)
    y = np.ascontiguousarray(y, np.float64)
    i0, i1, size, b0, b1 = _window(x, x0, x1, pixels, params)
    lone = params.lone_px * (x1 - x0) / max(pixels, 1)
    if not size:
        return lone_dashes(x[i0:i1], y[i0:i1], lone)
    part = y[b0 * size : b1 * size]
    points = _points(x[b0 * size : b1 * size : size], _binned(part, size, np.fmin), _binned(part, size, np.fmax))
    return lone_dashes(*points, lone)


def minmax_level(
    x: np.ndarray, y: np.ndarray, x0: float, x1: float, pixels: int, params: PyramidParams = PYRAMID
) -> tuple[np.ndarray, np.ndarray] | None:
    """MinMaxPyramid(x, y).level(x0, x1, pixels) for one view (an export)."""
    return MinMaxPyramid(x, y, params).level(x0, x1, pixels)


def lone_dashes(xs: np.ndarray, ys: np.ndarray, width: float) -> tuple[np.ndarray, np.ndarray]:
    """The points with every stretch of finite values between gaps that is narrower than `width`
    (a lone sample, a bin's min and max at one x) widened to `width` around its middle, a lone
    sample doubled: a line drawn with connect='finite' draws nothing for a point alone."""
    f = np.isfinite(ys)
    if f.all() or not f.any() or not width > 0:
        return xs, ys
    edges = np.diff(np.concatenate(([0], f.view(np.int8), [0])))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    short = xs[ends] - xs[starts] < width
    if not short.any():
        return xs, ys
    starts, ends = starts[short], ends[short]
    reps = np.ones(len(xs), np.intp)
    reps[starts[starts == ends]] = 2
    at = np.cumsum(reps) - reps  # where each old point lands
    nx, ny = np.repeat(xs, reps).astype(np.float64), np.repeat(ys, reps)
    centre = (xs[starts] + xs[ends]) / 2
    nx[at[starts]] = centre - width / 2
    nx[at[ends] + reps[ends] - 1] = centre + width / 2
    return nx, ny


def drawn_as_steps(ref: SeriesRef, unit: str) -> bool:
    """A rate of a snapshot counter: drawn as steps (`as_steps`)."""
    return ref.format in SNAPSHOT_FORMATS and "/s" in unit


def as_steps(t: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each rate over the interval it covers, from the snapshot before (its time t[k-1]; the first
    over the median interval) to its own: two points per sample, joined into a staircase."""
    if len(t) < 2:
        return t, v
    begin = np.empty_like(t, dtype=np.float64)
    begin[1:] = t[:-1]
    begin[0] = t[0] - float(np.median(np.diff(t)))
    xs = np.empty(2 * len(t))
    xs[0::2], xs[1::2] = begin, t
    return xs, np.repeat(v, 2)


def _sizes(n: int, params: PyramidParams) -> list[int]:
    """Samples per bin of each level, finest first: no level has fewer than min_bins bins."""
    sizes, size = [], params.factor
    while n // size >= params.min_bins:
        sizes.append(size)
        size *= params.factor
    return sizes


def _window(x: np.ndarray, x0: float, x1: float, pixels: int, params: PyramidParams) -> tuple[int, int, int, int, int]:
    """(i0, i1, size, b0, b1): the samples i0:i1 of the view (one of margin on each side), and the
    level drawn, its bins of `size` samples b0:b1; size 0 when the samples are few enough to draw."""
    n = len(x)
    i0 = max(int(np.searchsorted(x, x0, "left")) - 1, 0)
    i1 = min(int(np.searchsorted(x, x1, "right")) + 1, n)
    budget = max(params.points_per_pixel * pixels, params.min_points)
    sizes = _sizes(n, params)
    if i1 - i0 <= budget or not sizes:
        return i0, i1, 0, 0, 0
    for size in sizes:
        b0, b1 = i0 // size, -(-i1 // size)
        if b1 - b0 <= budget // 2:
            break  # else the coarsest level is the floor
    return i0, i1, size, b0, b1


def _binned(v: np.ndarray, k: int, pick: np.ufunc) -> np.ndarray:
    """pick (np.fmin or np.fmax: NaN skipped unless a bin is all NaN) of each k consecutive values,
    the last bin possibly shorter."""
    full = len(v) // k * k
    bins = v[:full].reshape(-1, k)
    with np.errstate(invalid="ignore"):
        if k <= 16:  # a few columns: column by column (numpy reduces short rows one row at a time)
            out = bins[:, 0].copy()
            for j in range(1, k):
                pick(out, bins[:, j], out=out)
        else:
            out = pick.reduce(bins, axis=1)
        if full < len(v):
            out = np.append(out, pick.reduce(v[full:]))
    return out


def _medians(v: np.ndarray, k: int, stride: int = 1) -> np.ndarray:
    """The median of each k consecutive values, of every `stride`-th of them (NaN skipped; NaN
    for a bin all NaN), the last bin possibly shorter. Rows sorted and the middle picked:
    np.median and np.nanmedian along rows of 4 took 130 and 400 ms for 86,400 samples, this 3."""
    full = len(v) // k * k
    rows = np.sort(v[:full].reshape(-1, k)[:, ::stride], axis=1)  # NaN sort last
    if full < len(v):
        tail = np.full((1, rows.shape[1]), np.nan)
        rest = np.sort(v[full::stride])[: rows.shape[1]]
        tail[0, : len(rest)] = rest
        rows = np.vstack((rows, tail))
    width = rows.shape[1]
    n = np.isfinite(rows).sum(axis=1)
    lo = np.take_along_axis(rows, np.maximum((n - 1) // 2, 0)[:, None], axis=1)[:, 0]
    hi = np.take_along_axis(rows, np.minimum(n // 2, width - 1)[:, None], axis=1)[:, 0]
    out = (lo + hi) / 2
    out[n == 0] = np.nan
    return out


def _points(bx: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each bin drawn as its min then its max, both at the bin's start."""
    xs = np.repeat(bx, 2)
    ys = np.empty(2 * len(bx))
    ys[0::2], ys[1::2] = lo, hi
    return xs, ys
