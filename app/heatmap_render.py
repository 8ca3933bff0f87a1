"""A heatmap panel drawn with QPainter for the exports (PNG, SVG, PDF: app/render.py calls it),
from the same Grid as the window's (app/analysis/heatmap.py): the same rows, bins and colour
scale. The entities' names go in the value axis' margin (as many as fit, evenly), a thin rule
parts two runs' rows with each run's colour along the left edge, and the colour scale with its
clamp sits at the right of the heading row."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QImage, QLinearGradient, QPainter, QPen

from benchlens.app.analysis.heatmap import HEATMAP_FROM, LUT, Grid, Row, grid, heatmap_ref
from benchlens.app.figure import Figure


def heatmap_of(fig: Figure, i: int, x0: float, x1: float, columns: float) -> Grid | None:
    """Panel i's heatmap grid, None when the panel is not a `*` panel with more than
    HEATMAP_FROM entities in one run (then its entities are lines)."""
    panel = fig.panels[i]
    if heatmap_ref(panel.shown()) is None:
        return None
    lines = fig.lines[i]
    per_run: dict[int, int] = {}
    for ln in lines:
        per_run[ln.run] = per_run.get(ln.run, 0) + 1
    if max(per_run.values(), default=0) <= HEATMAP_FROM:
        return None
    rows = [Row(ln.run, ln.ref.entity, ln.x, ln.y) for ln in lines]
    return grid(rows, x0, x1, max(1, round(columns)), panel.order, fig.units[i])


def draw_heatmap(p: QPainter, g: Grid, area: QRectF, font: QFont, text: QColor, colors: dict[int, QColor]) -> None:
    """The grid into the plot area, its row names left of it, its scale above its right end."""
    rgba = np.ascontiguousarray(g.rgba())
    h, w = rgba.shape[:2]
    if h and w:
        image = QImage(rgba.data, w, h, w * 4, QImage.Format.Format_RGBA8888).copy()  # owns its pixels
        p.save()
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, False)  # rows stay rows
        p.drawImage(area, image)
        p.restore()
    p.setPen(QPen(text, 0.8))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRect(area)
    _row_names(p, g, area, font, text, colors)
    _scale(p, g, area, font, text)


def _row_names(p: QPainter, g: Grid, area: QRectF, font: QFont, text: QColor, colors: dict[int, QColor]) -> None:
    fm = QFontMetricsF(font)
    n = len(g.rows)
    if not n:
        return
    row_h = area.height() / n
    every = max(1, int(np.ceil(fm.height() / row_h)))  # a name every `every` rows, never overlapping
    p.setFont(font)
    runs = list(dict.fromkeys(r for r, _ in g.rows))
    for k, (run, entity) in enumerate(g.rows):
        y = area.top() + (k + 0.5) * row_h
        if len(runs) > 1:  # which run a row is: its colour along the left edge
            p.fillRect(QRectF(area.left() - 3, area.top() + k * row_h, 3, row_h), colors.get(run, text))
        if k % every == 0:
            box = QRectF(area.left() - fm.height() * 6, y - fm.height() / 2, fm.height() * 6 - 5, fm.height())
            p.setPen(text)
            p.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, entity)
    p.setPen(QPen(text, 1.2))
    for k in range(1, n):  # a rule between two runs' rows
        if g.rows[k][0] != g.rows[k - 1][0]:
            y = area.top() + k * row_h
            p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))


def _scale(p: QPainter, g: Grid, area: QRectF, font: QFont, text: QColor) -> None:
    """The colour bar and its words ('0 - 100 %', '0 - 412 1/s (p99, max 5000)') over the
    panel's right end, in the heading row."""
    fm = QFontMetricsF(font)
    words = g.scale_text()
    bar_w, bar_h = fm.height() * 5, fm.height() * 0.6
    right = area.right()
    y = area.top() - fm.height() * 0.95
    tw = fm.horizontalAdvance(words)
    bar = QRectF(right - tw - bar_w - 6, y + (fm.height() - bar_h) / 2, bar_w, bar_h)
    grad = QLinearGradient(bar.left(), 0, bar.right(), 0)
    for k in range(0, 256, 32):
        grad.setColorAt(k / 255, QColor(*(int(c) for c in LUT[k][:3])))
    grad.setColorAt(1.0, QColor(*(int(c) for c in LUT[255][:3])))
    p.fillRect(bar, grad)
    p.setPen(QPen(text, 0.6))
    p.drawRect(bar)
    p.setFont(font)
    p.drawText(
        QRectF(right - tw, y, tw, fm.height()), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, words
    )
