"""Heatmap panels (issue #25): every entity of one metric as a row, time along x, the value as a
colour, for the window (app/ui/heatmap.py, pyqtgraph's ImageItem) and the exports
(app/heatmap_render.py) alike: both draw the `Grid` made here, so their rows, bins and colour
scale are the same.

A panel spec `SOURCE:METRIC:*` asks for every entity of a metric (`members`); with more than
HEATMAP_FROM of them (over the runs) it is drawn as a heatmap, else as lines. Rows come per run
(two runs stacked: the first run's rows on top), each run's ordered by number (`cpu 2` before
`cpu 10`) or by load (the busiest first). Each column is one time bin holding the highest value
of the bin (a 1 s saturation stays visible in a day); the colour scale ends at the CLAMP_PERCENTILE
of the samples shown, so one outlier does not wash the rest out, and the clamp is said on the
scale.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis import imbalance
from benchlens.app.analysis.panel import Panel
from benchlens.app.model import SeriesRef

EVERY = "*"
# more entities than this: a heatmap (the "more than ~8 CPUs or devices"), else lines
HEATMAP_FROM = 8
# the colour scale ends at this percentile of the samples shown (never above the largest): a
# lone 5,000 IOPS spike does not turn every other device white. Chosen by hand.
CLAMP_PERCENTILE = 99.0
# at most this many samples are read to find the clamp, evenly spread: 256 CPUs x 24 h at 1 s
# is 22 million values, a percentile of which would take longer than drawing them
CLAMP_SAMPLES = 1_000_000
# the colour scale, low to high: white (nothing), yellow, orange, red, dark red, as Brendan
# Gregg's CPU utilisation heatmaps read; 256 entries of RGBA
_STOPS = (
    (0.0, (255, 255, 255)),
    (0.25, (254, 227, 145)),
    (0.5, (254, 153, 41)),
    (0.75, (215, 48, 31)),
    (1.0, (103, 0, 13)),
)
PERCENT_TOP = 100.5  # a % share read as 100.5 is rounding (mpstat prints 100.50 at times), not above 100
GAP = (224, 224, 224, 255)  # no sample in a bin: light grey, never a value's colour
ORDERS = ("number", "load")


class SharedX:
    """The plotted x of time arrays, made once per distinct array of a run: a report's 256 CPUs
    share their times, and 256 copies of 86,400 x values cost more than drawing them (each a
    fresh allocation). `of(run, t, make)` returns the x made for an equal array before."""

    def __init__(self) -> None:
        self._made: dict[int, list[tuple[np.ndarray, np.ndarray]]] = {}

    def of(self, run: int, t: np.ndarray, make: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        known = self._made.setdefault(run, [])
        for seen, x in known:
            if seen is t or (len(seen) == len(t) and np.array_equal(seen, t)):
                return x
        x = make(t)
        known.append((t, x))
        return x


def _lut() -> np.ndarray:
    pos = np.linspace(0.0, 1.0, 256)
    out = np.empty((256, 4), np.uint8)
    at = [s[0] for s in _STOPS]
    for k in range(3):
        out[:, k] = np.round(np.interp(pos, at, [s[1][k] for s in _STOPS]))
    out[:, 3] = 255
    return out


LUT = _lut()


def is_every(ref: SeriesRef) -> bool:
    return ref.entity == EVERY


def members(ref: SeriesRef, available: Iterable[SeriesRef]) -> list[SeriesRef]:
    """The series a ref stands for in one run: itself, or for `SOURCE:METRIC:*` every entity of
    that metric but the aggregate (`all`, `total`), in number order. A CPU's made series
    (`%busy`, `%intr`: app/analysis/imbalance.py) stand for every CPU that has its parts."""
    if not is_every(ref):
        return [ref]
    have = set(available)
    probe = imbalance.parts(SeriesRef(ref.format, ref.metric, "0"))
    stored = probe[0].metric if probe else ref.metric
    names = {r.entity for r in have if r.format == ref.format and r.metric == stored and r.entity}
    names -= {imbalance.AGGREGATE, "total"}
    if probe:
        names = {n for n in names if all(p in have for p in imbalance.parts(SeriesRef(ref.format, ref.metric, n)))}
    return [SeriesRef(ref.format, ref.metric, n) for n in sorted(names, key=imbalance.natural)]


def as_lines(panel: Panel, available: Sequence[Iterable[SeriesRef]]) -> Panel:
    """A `*` panel whose runs (their series: `available`) have at most HEATMAP_FROM entities as
    the panel of their lines, one legend entry and line style each; any other panel as it is."""
    every = heatmap_ref(panel.shown())
    if every is None:
        return panel
    each = [members(every, a) for a in available]
    if max((len(m) for m in each), default=0) > HEATMAP_FROM:
        return panel
    refs = list(dict.fromkeys(r for m in each for r in m))
    return dataclasses.replace(panel, refs=refs, hidden=[])


def heatmap_ref(refs: Sequence[SeriesRef]) -> SeriesRef | None:
    """The `*` ref of a panel that is one (its only series), else None."""
    return refs[0] if len(refs) == 1 and is_every(refs[0]) else None


@dataclass(frozen=True)
class Row:
    run: int
    entity: str
    x: np.ndarray
    y: np.ndarray


@dataclass(frozen=True)
class Grid:
    """What a heatmap shows: its rows top to bottom (run, entity), the time bins' edges and each
    bin's value per row (NaN: no sample), and the colour scale's end."""

    rows: list[tuple[int, str]]
    edges: np.ndarray  # len(columns) + 1
    values: np.ndarray  # rows x columns
    clamp: float  # the value the scale ends at
    peak: float  # the largest value shown (above clamp when the scale is clamped)
    unit: str = ""

    @property
    def clamped(self) -> bool:
        return self.peak > self.clamp

    def scale_text(self) -> str:
        """The scale's end in words: '0 - 97 % (p99; max 100)' when clamped."""
        top = f"{self.clamp:.3g}"
        unit = f" {self.unit}" if self.unit else ""
        if self.clamped:
            return f"0 \u2013 {top}{unit} (p{CLAMP_PERCENTILE:g}, max {self.peak:.3g})"
        return f"0 \u2013 {top}{unit}"

    def rgba(self) -> np.ndarray:
        """rows x columns x 4 colours (uint8): the picture both the window and the export draw."""
        scaled = np.clip(self.values / self.clamp if self.clamp > 0 else self.values * 0, 0.0, 1.0)
        idx = np.round(np.nan_to_num(scaled, nan=0.0) * 255).astype(np.intp)
        out = LUT[idx]
        out[~np.isfinite(self.values)] = GAP
        return out

    def at(self, x: float, row: int) -> tuple[int, str, float] | None:
        """(run, entity, value) of the bin at time x in row `row` (0 the top); None outside."""
        if not (0 <= row < len(self.rows)) or not (self.edges[0] <= x <= self.edges[-1]):
            return None
        col = min(int(np.searchsorted(self.edges, x, side="right")) - 1, self.values.shape[1] - 1)
        run, entity = self.rows[row]
        return run, entity, float(self.values[row, max(col, 0)])


def grid(rows: Sequence[Row], x0: float, x1: float, columns: int, order: str = "number", unit: str = "") -> Grid:
    """The heatmap of these rows (each run's in the given order, runs in their first appearance)
    between x0 and x1 in `columns` bins of the highest value each."""
    if x1 <= x0:
        x1 = x0 + 1.0
    ordered = _ordered(rows, order, x0, x1)
    groups = _same_times(ordered)  # one report's CPUs share one time array: binned once
    # never more bins than samples: a bin between two samples would be a gap, and a 10-minute
    # run is drawn as the same grid at any width (the window's and the export's alike)
    steps = [float(np.median(np.diff(x[:1001]))) for x, _ in groups if len(x) > 1]
    step = min((s for s in steps if s > 0), default=0.0)
    columns = max(1, min(int(columns), int(np.ceil((x1 - x0) / step)) + 1 if step else int(columns)))
    edges = np.linspace(x0, x1, columns + 1)
    values = np.full((len(ordered), columns), np.nan)
    for x, ks in groups:
        got = _bins(x, edges)
        if got is None:
            continue
        lo, hi, starts, cols = got
        for k in ks:  # row by row: no copy of the rows into one array (2-3x slower for 256 CPUs)
            values[k, cols] = np.fmax.reduceat(ordered[k].y[lo:hi], starts)
    clamp, peak = _clamp(ordered, x0, x1, unit, values)
    return Grid([(r.run, r.entity) for r in ordered], edges, values, clamp, peak, unit)


def _in(row: Row, x0: float, x1: float) -> np.ndarray:
    lo, hi = np.searchsorted(row.x, x0, side="left"), np.searchsorted(row.x, x1, side="right")
    y = row.y[lo:hi]
    return y[np.isfinite(y)]


def _ordered(rows: Sequence[Row], order: str, x0: float, x1: float) -> list[Row]:
    runs = list(dict.fromkeys(r.run for r in rows))
    out: list[Row] = []
    for run in runs:
        mine = sorted((r for r in rows if r.run == run), key=lambda r: imbalance.natural(r.entity))
        if order == "load":
            mine.sort(key=lambda r: -(float(v.mean()) if (v := _in(r, x0, x1)).size else -np.inf))
        out += mine
    return out


def _same_times(rows: Sequence[Row]) -> list[tuple[np.ndarray, list[int]]]:
    """The rows grouped by their time array (one report's CPUs share one)."""
    groups: list[tuple[np.ndarray, list[int]]] = []
    for k, row in enumerate(rows):
        same = (ks for x, ks in groups if x is row.x or (len(x) == len(row.x) and np.array_equal(x, row.x)))
        found = next(same, None)
        if found is None:
            groups.append((row.x, [k]))
        else:
            found.append(k)
    return groups


def _bins(x: np.ndarray, edges: np.ndarray) -> tuple[int, int, np.ndarray, np.ndarray] | None:
    """How samples at times x fall in the bins: the samples in range (lo:hi), where each bin's
    run of samples starts among them and which column each run is. The highest finite value of
    each is then `np.fmax.reduceat(y[lo:hi], starts)` (fmax skips NaN; a bin of NaN only stays
    NaN; a bin without samples is never written: NaN): a 1 s peak stays. None: no sample in range."""
    lo, hi = np.searchsorted(x, edges[0], side="left"), np.searchsorted(x, edges[-1], side="right")
    if hi <= lo:
        return None
    col = np.minimum(np.searchsorted(edges, x[lo:hi], side="right") - 1, len(edges) - 2)
    # samples in time order fall in non-decreasing bins: reduce over where each bin starts
    starts = np.flatnonzero(np.r_[True, col[1:] != col[:-1]])
    return int(lo), int(hi), starts, col[starts]


def _clamp(rows: Sequence[Row], x0: float, x1: float, unit: str, values: np.ndarray) -> tuple[float, float]:
    """The scale's end and the largest sample. A share of a CPU or a device (%) ends at 100: its
    own bound, which no outlier passes (a percentile of 256 CPUs mostly at 30 % would end near 35
    and paint the idle ones red). Anything else ends at the CLAMP_PERCENTILE of the samples in the
    window, read evenly from at most CLAMP_SAMPLES: from the data, not from the bins, so that
    the window and an export of another width have the same scale."""
    if not np.isfinite(values).any():
        return 1.0, 0.0
    peak = float(np.nanmax(values))  # the bins hold the highest samples: the highest of all
    if unit == "%" and peak <= PERCENT_TOP:
        return 100.0, peak
    shown = [v for r in rows if (v := _in(r, x0, x1)).size]
    total = sum(v.size for v in shown)
    step = max(1, -(-total // CLAMP_SAMPLES))
    sample = np.concatenate([v[::step] for v in shown])
    clamp = float(np.percentile(sample, CLAMP_PERCENTILE))
    if clamp <= 0:
        clamp = peak if peak > 0 else 1.0
    return clamp, peak
