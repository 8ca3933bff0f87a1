"""What every figure is drawn with and onto: the themes, the look at a figure's size (fonts, each
run's colour and line), the geometry of a column of panels and a panel's value scale, the
polyline, and the devices (a PNG image, an SVG, a PDF). app/render.py draws the time-series
figure with them, app/stepplot.py the step-load chart."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from pyqtgraph.functions import create_qpolygonf, ndarray_from_qpolygonf
from PySide6.QtCore import QMarginsF, QRectF, QSize, QSizeF
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPageLayout,
    QPageSize,
    QPaintEngine,
    QPainter,
    QPdfWriter,
    QPolygonF,
)
from PySide6.QtSvg import QSvgGenerator

from benchlens.app.figure import Figure
from benchlens.app.palette import run_color
from benchlens.app.stepchart import StepChart
from benchlens.app.ticks import log_ticks, value_ticks

# runs overlaid before their lines get thinner and see-through (width / sqrt(n / MANY_RUNS)):
# chosen by eye on 10 nightly runs of bench/export_speed.py, not measured
MANY_RUNS = 4


@dataclass(frozen=True)
class Theme:
    """An export's background, text, grid and frame; the runs' colours are the window's
    (app/palette.py, by their place in the comparison) in every theme."""

    background: str
    text: str
    grid: str
    frame: str


PUBLICATION = Theme("#ffffff", "#202020", "#e6e6e6", "#808080")
SCREEN = Theme("#ffffff", "#333333", "#eeeeee", "#aaaaaa")
THEMES = {"publication": PUBLICATION, "screen": SCREEN}


@dataclass(frozen=True)
class Look:
    """The theme at this figure's size and for its runs: the unit every size and gap is a
    multiple of, the fonts, each run's colour and line style."""

    theme: Theme
    base: float  # 1/60 of the figure's smaller side (9 px at least): text keeps its proportion on any size
    title_font: QFont  # _title shrinks it in place when the title is long
    font: QFont
    small: QFont
    fm: QFontMetricsF  # of font
    fs: QFontMetricsF  # of small
    color: dict[int, QColor]  # run id -> colour
    line: float  # a curve's pen width: thinner as runs are added (MANY_RUNS)
    alpha: int  # a curve's opacity, 0-255: below 255 with many runs so crossings show both
    text: QColor


@dataclass(frozen=True)
class Geometry:
    """Where the panels go: a column from left to right, stacked from top (under the legend) to
    bottom (over the time axis), gap apart; and the time window x0..x1 they share, with its ticks."""

    width: float
    left: float
    right: float
    top: float
    bottom: float
    gap: float
    offsets: list[float]  # each panel's top, from `top`; the last entry is where the column ends
    x0: float
    x1: float
    xticks: list[tuple[float, str]]  # position, label (app/ticks.py: the window's time axis reads the same)
    x_title: str  # the words under the time axis: its scale (seconds, m:ss, h:mm, UTC dates)

    def sx(self, v: np.ndarray | float) -> np.ndarray | float:
        return self.left + (np.asarray(v) - self.x0) / (self.x1 - self.x0) * (self.right - self.left)

    def area(self, i: int, heading: float) -> QRectF:
        """The plot area of panel i, under its heading."""
        y_top = self.top + self.offsets[i]
        height = self.offsets[i + 1] - self.offsets[i] - self.gap
        return QRectF(self.left, y_top + heading, self.right - self.left, height - heading)


@dataclass(frozen=True)
class Plot:
    """A panel's plot area and the values it spans, bottom to top."""

    area: QRectF
    lo: float  # log10 of the value on a log axis
    hi: float
    log: bool = False
    unit: str = ""

    def sy(self, v: np.ndarray | float) -> np.ndarray | float:
        v = log10_of(v) if self.log else np.asarray(v)
        return self.area.bottom() - (v - self.lo) / (self.hi - self.lo) * self.area.height()

    def ticks(self, line: float) -> list[tuple[float, str]]:
        """(position in axis units, label) for labels `line` px high: decades on a log axis.
        The same ticks and strings as the window's value axis (app/ui/axes.py)."""
        pick = log_ticks if self.log else value_ticks
        return pick(self.lo, self.hi, self.area.height(), line, self.unit)


def log10_of(v: np.ndarray | float) -> np.ndarray:
    """log10 of the positive values; the others are gaps (NaN), as in the window."""
    a = np.asarray(v, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(a > 0, np.log10(np.where(a > 0, a, 1.0)), np.nan)


def look_of(fig: Figure | StepChart, w: float, h: float, theme: Theme) -> Look:
    base = max(9.0, min(w, h) / 60)
    title_font, font, small = QFont("DejaVu Sans"), QFont("DejaVu Sans"), QFont("DejaVu Sans")
    title_font.setPixelSize(round(base * 1.5))
    title_font.setBold(True)
    font.setPixelSize(round(base * 1.05))
    small.setPixelSize(round(base * 0.9))
    color = {r.id: QColor(run_color(i)) for i, r in enumerate(fig.runs)}
    crowd = max(1.0, len(fig.runs) / MANY_RUNS)
    line, alpha = max(1.2, base / 7) / math.sqrt(crowd), round(255 / crowd**0.25)
    fm, fs = QFontMetricsF(font), QFontMetricsF(small)
    return Look(theme, base, title_font, font, small, fm, fs, color, line, alpha, QColor(theme.text))


def polyline(p: QPainter, xs: np.ndarray, ys: np.ndarray) -> None:
    """Draw the finite stretches (a NaN is a gap, as in the window). On an image, as the line
    segments between consecutive points: Qt rasterizes a segment list with a wide pen directly
    (dashes continue from one segment to the next), 15x faster than stroking the polyline as one
    outline (35 against 2.3 ms for a decimated 24 h line of 676 points at 1.6 px, bench/export_speed.py).
    SVG and PDF get polylines: smaller files, nothing rasterized here."""
    ok = np.isfinite(xs) & np.isfinite(ys)
    if p.paintEngine().type() == QPaintEngine.Type.Raster:
        both = np.flatnonzero(ok[:-1] & ok[1:])
        if len(both):
            pairs = np.empty((2 * len(both), 2))
            pairs[0::2, 0], pairs[0::2, 1] = xs[both], ys[both]
            pairs[1::2, 0], pairs[1::2, 1] = xs[both + 1], ys[both + 1]
            p.drawLines(_polygon(pairs))  # type: ignore[call-overload]  # a QPolygonF is a QList<QPointF>
        return
    edges = np.diff(np.concatenate(([0], ok.astype(np.int8), [0])))
    for a, b in zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True):
        p.drawPolyline(_polygon(np.column_stack((xs[a:b], ys[a:b]))))


def _polygon(points: np.ndarray) -> QPolygonF:
    """A QPolygonF of an (n, 2) array, filled in place (a list of n QPointF costs 1 us a point)."""
    poly = create_qpolygonf(len(points))
    ndarray_from_qpolygonf(poly)[:] = points
    return poly


Painting = Callable[[QPainter, float, float], None]  # draws a whole figure into (0, 0, w, h)


def image(paint: Painting, size: tuple[int, int], scale: float, theme: Theme) -> QImage:
    """A drawing on size x scale pixels."""
    w, h = size
    # Qt paints premultiplied: ARGB32 would convert every blended pixel back and forth
    img = QImage(max(1, round(w * scale)), max(1, round(h * scale)), QImage.Format.Format_ARGB32_Premultiplied)
    img.setDevicePixelRatio(scale)
    img.fill(QColor(theme.background))
    painter = QPainter(img)
    paint(painter, w, h)
    painter.end()
    return img


def write(paint: Painting, title: str, out: Path, size: tuple[int, int], scale: float, theme: Theme) -> Path:
    """A drawing written as .png (size x scale pixels), .svg (sized in px) or .pdf (vector)."""
    w, h = size
    suffix = out.suffix.lower()
    painter = QPainter()
    if suffix == ".png":
        if not image(paint, size, scale, theme).save(str(out)):  # format from the .png suffix
            raise OSError(f"cannot write {out}")
    elif suffix == ".svg":
        gen = QSvgGenerator()
        gen.setFileName(str(out))
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRectF(0, 0, w, h))
        gen.setTitle(title)
        gen.setDescription("benchlens figure")
        painter.begin(gen)
        paint(painter, w, h)
        painter.end()
        _size_in_px(out, w, h)
    elif suffix == ".pdf":
        pdf = QPdfWriter(str(out))
        pdf.setResolution(96)
        pdf.setPageLayout(
            QPageLayout(
                QPageSize(QSizeF(w * 72 / 96, h * 72 / 96), QPageSize.Unit.Point),
                QPageLayout.Orientation.Portrait,
                QMarginsF(0, 0, 0, 0),
            )
        )
        pdf.setTitle(title)
        painter.begin(pdf)
        paint(painter, w, h)
        painter.end()
    else:
        raise ValueError(f"unknown figure format {out.suffix!r} (png, svg, pdf)")
    if not out.exists() or out.stat().st_size == 0:
        raise OSError(f"cannot write {out}")
    return out


def _size_in_px(svg: Path, w: int, h: int) -> None:
    """QSvgGenerator sizes the drawing in mm (at its 90 dpi): a browser showed a 1200 px figure
    1600 px wide. The root's width and height become px, the viewBox stays."""
    text = svg.read_text(encoding="utf-8")
    root = re.search(r"<svg\b[^>]*>", text)
    if root is None:
        raise OSError(f"cannot write {svg}: no <svg> element")
    tag = re.sub(r'\bwidth="[^"]*"', f'width="{w}px"', root.group(0), count=1)
    tag = re.sub(r'\bheight="[^"]*"', f'height="{h}px"', tag, count=1)
    svg.write_text(text[: root.start()] + tag + text[root.end() :], encoding="utf-8")
