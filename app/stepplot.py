"""The step-load chart drawn with QPainter (app/stepchart.py holds its data): throughput on top,
latency under it (when TPS goes flat, latency tells the saturation), against the thread count on
a log2 axis. A step-load run is a line through its steps, a fixed-concurrency run one diamond;
colour is the run, as in every figure. The same building blocks, fonts and themes as
app/render.py, so it exports like any figure (PNG, SVG in px, PDF) and the window can show it."""

from __future__ import annotations

import math
from functools import partial
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QPolygonF

from benchlens.app.render import (
    PUBLICATION,
    SIZES,
    Geometry,
    Look,
    Plot,
    Theme,
    draw_title,
    grid,
    image,
    look_of,
    polyline,
    run_legend,
    write,
)
from benchlens.app.stepchart import RunPoints, StepChart
from benchlens.app.ticks import heading

X_TITLE = "concurrency (threads)"


def draw_steps(chart: StepChart, p: QPainter, w: float, h: float, theme: Theme = PUBLICATION) -> None:
    """Draw the whole chart into the rectangle (0, 0, w, h) of the painter."""
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.fillRect(QRectF(0, 0, w, h), QColor(theme.background))
    look = look_of(chart, w, h, theme)
    top = draw_title(p, chart.title, w, look)
    top = run_legend(p, chart, w, top, look)
    with_latency = any(math.isfinite(pt.latency) for ln in chart.lines for pt in ln.points)
    geo = _geometry(chart, w, h, top, 2 if with_latency else 1, look)
    _panel(p, chart, 0, "Throughput", "1/s", [(ln, [pt.tps for pt in ln.points]) for ln in chart.lines], geo, look)
    if with_latency:
        title = "Latency " + chart.latency.removesuffix("ms").strip()
        values = [(ln, [pt.latency for pt in ln.points]) for ln in chart.lines]
        _panel(p, chart, 1, title.strip(), "ms", values, geo, look)
    _axis(p, geo, look)


def _geometry(chart: StepChart, w: float, h: float, top: float, panels: int, look: Look) -> Geometry:
    """Panels stacked as on the time charts, sharing a log2 axis of the thread counts."""
    base = look.base
    left, right, bottom, gap = base * 6.5, w - base * 1.5, h - base * 4.2, base * 2.2
    room = bottom - top + gap
    offsets = [room * k / panels for k in range(panels + 1)]
    threads = sorted({pt.threads for ln in chart.lines for pt in ln.points})
    lo, hi = math.log2(threads[0]), math.log2(threads[-1])
    pad = max(0.3, (hi - lo) * 0.06)
    x0, x1 = lo - pad, hi + pad
    ticks: list[tuple[float, str]] = []
    for t in threads:  # every thread count that leaves room for its label
        x = math.log2(t)
        if not ticks or (x - ticks[-1][0]) / (x1 - x0) * (right - left) > look.fs.horizontalAdvance("0000") * 1.4:
            ticks.append((x, f"{t:g}"))
    return Geometry(w, left, right, top, bottom, gap, offsets, x0, x1, ticks, X_TITLE)


def _panel(
    p: QPainter,
    chart: StepChart,
    i: int,
    title: str,
    unit: str,
    values: list[tuple[RunPoints, list[float]]],
    geo: Geometry,
    look: Look,
) -> None:
    """One value against concurrency: a line with dots per step-load run, a diamond per fixed run."""
    area = geo.area(i, look.fs.height() * 1.3)
    finite = [v for _, vs in values for v in vs if math.isfinite(v)]
    plot = Plot(area, 0.0, (max(finite) if finite else 1.0) * 1.08 or 1.0, False, unit)
    grid(p, geo, plot, look)
    p.setFont(look.font)
    p.setPen(look.text)
    p.drawText(QPointF(area.left(), area.top() - look.fs.height() * 0.35), heading(title, unit, ["tps"]))
    p.save()
    p.setClipRect(area.adjusted(-look.base, -look.base, look.base, look.base))
    r = look.base * 0.35
    for ln, vs in values:
        xs = np.asarray(geo.sx(np.log2([pt.threads for pt in ln.points])))
        ys = np.asarray(plot.sy(np.array(vs, dtype=np.float64)))
        color = look.color[ln.run.id]
        p.setPen(QPen(color, look.line * 1.4))
        polyline(p, xs, ys)
        p.setBrush(color)
        for x, y in zip(xs, ys, strict=True):
            if math.isfinite(y):
                _marker(p, QPointF(float(x), float(y)), r * (1.6 if ln.fixed else 1.0), ln.fixed)
    p.restore()


def _marker(p: QPainter, at: QPointF, r: float, diamond: bool) -> None:
    if diamond:  # a fixed-concurrency run: one point, shaped apart from the steps' dots
        p.drawPolygon(QPolygonF([at + QPointF(0, -r), at + QPointF(r, 0), at + QPointF(0, r), at + QPointF(-r, 0)]))
    else:
        p.drawEllipse(at, r, r)


def _axis(p: QPainter, geo: Geometry, look: Look) -> None:
    """The thread counts under the bottom panel, and what they are."""
    fs = look.fs
    p.setFont(look.small)
    p.setPen(look.text)
    for x, label in geo.xticks:
        tw = fs.horizontalAdvance(label)
        p.drawText(QPointF(float(geo.sx(x)) - tw / 2, geo.bottom + look.base * 0.4 + fs.ascent()), label)
    p.setFont(look.font)
    p.drawText(
        QRectF(geo.left, geo.bottom + look.base * 0.5 + fs.height(), geo.right - geo.left, look.fm.height() * 1.5),
        Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignVCenter,
        geo.x_title,
    )


def to_image(
    chart: StepChart, size: tuple[int, int] = SIZES["blog"], scale: float = 1.0, theme: Theme = PUBLICATION
) -> QImage:
    """The chart on size x scale pixels (for the window: its widget's size and pixel ratio)."""
    return image(partial(draw_steps, chart, theme=theme), size, scale, theme)


def export(
    chart: StepChart, out: Path, size: tuple[int, int] = SIZES["blog"], scale: float = 1.0, theme: Theme = PUBLICATION
) -> Path:
    """Write the chart as .png, .svg or .pdf, as render.export writes a figure."""
    return write(partial(draw_steps, chart, theme=theme), chart.title, out, size, scale, theme)
