"""The window's value and time axes: pyqtgraph AxisItems whose ticks and labels come from
app/ticks.py, the formatter the exports use, so the window and a PNG read the same strings."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPicture, QTransform

from benchlens.app.ticks import TimeScale, log_ticks, time_ticks, value_ticks


class DirectAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """pyqtgraph's axis, painted straight onto the painter it is given."""

    def __init__(self, *args: object, **kw: object) -> None:
        super().__init__(*args, **kw)
        self._text_font = ""  # the font the label boxes below were measured in
        self._text_rects: dict[str, QRectF] = {}  # text -> its box (_text_rect)

    def paint(self, p: QPainter, *_: object) -> None:
        """pyqtgraph's paint drawn straight onto `p`, not recorded into a QPicture and replayed: a
        value axis is a cached item (app/ui/charts.py) painted only when its range changed, the time
        axis changes with every pan; each time anew. The layout of the ticks and labels is worked
        out on a QPicture as pyqtgraph does."""
        picture = QPicture()
        rec = QPainter(picture)
        try:
            if self.style["tickFont"]:
                rec.setFont(self.style["tickFont"])
            font = QFont(rec.font())  # a copy: the painter's own is gone with it
            specs = self.generateDrawSpecs(rec)
        finally:
            rec.end()
        if specs is None:
            return
        p.save()
        try:
            p.setFont(font)
            self.drawPicture(p, *specs)
        finally:
            p.restore()

    def generateDrawSpecs(self, p: QPainter) -> Any:
        """pyqtgraph's layout of the axis line, ticks and labels, the same specs worked out with
        less Python for the axes drawn here (one level of ticks, left or bottom, the default
        style): each label's size measured once, not every time; points made as Qt's. Anything
        else is pyqtgraph's own. A value axis is laid out anew whenever a pan refits its panel."""
        st = self.style
        ours = self._tickLevels is None and self.orientation in ("left", "bottom") and st["tickAlpha"] is None
        if not ours or tuple(st["stopAxisAtTick"]) != (False, False):
            return super().generateDrawSpecs(p)
        if st["tickFont"] is not None:
            p.setFont(st["tickFont"])
        frame = self._frame()
        if frame is None:
            return None
        span, pixels = frame[0], frame[-1]
        levels = self.tickValues(self.range[0], self.range[1], pixels)
        if len(levels) != 1:  # our tickValues give one level: this is not one of ours
            return super().generateDrawSpecs(p)
        spacing, values = levels[0]
        positions, tick_specs = self._ticks(frame, values)
        axis_spec = (self.pen(), span[0], span[1])
        if not st["showValues"]:
            return axis_spec, tick_specs, []
        strings = (
            self.tickStrings(values, self.autoSIPrefixScale * self.scale, spacing) if st["maxTextLevel"] >= 0 else []
        )
        return axis_spec, tick_specs, self._texts(p, frame, positions, strings)

    def _frame(self) -> Any:
        """(the axis line's ends, the ticks' start and stop across it, their direction, the axis
        (0 left, 1 bottom), the bounds, the length in pixels), as pyqtgraph works them out."""
        bounds = self.mapRectFromParent(self.geometry())
        view = self.linkedView()
        ticks_in = bounds if view is None or self.grid is False else view.mapRectToItem(self, view.boundingRect())
        if self.orientation == "left":
            span = (bounds.topRight() + QPointF(-1.0, -1.0), bounds.bottomRight() + QPointF(-1.0, 1.0))
            start, stop, direction, axis = ticks_in.right(), bounds.right(), -1, 0
        else:
            span = (bounds.topLeft() + QPointF(-1.0, 1.0), bounds.topRight() + QPointF(1.0, 1.0))
            start, stop, direction, axis = ticks_in.top(), bounds.top(), 1, 1
        device = self.deviceTransform_()
        if device is None:
            return None
        a, b = device.map(span[0]), device.map(span[1])
        pixels = math.hypot(b.x() - a.x(), b.y() - a.y())
        return None if pixels == 0 else (span, start, stop, direction, axis, bounds, pixels)

    def _ticks(self, frame: Any, values: list[float]) -> tuple[list[float | None], list[Any]]:
        """Each value's place along the axis (None: outside it) and the tick or grid line drawn there."""
        _, start, stop, direction, axis, bounds, pixels = frame
        lo, hi = self.range
        dif = hi - lo
        if dif == 0:
            scale, offset = 1.0, 0.0
        elif axis == 0:
            scale = -bounds.height() / dif
            offset = lo * scale - bounds.height()
        else:
            scale = bounds.width() / dif
            offset = lo * scale
        ends = [lo * scale - offset, hi * scale - offset]
        x_min, x_max = min(ends), max(ends)
        alpha = 255 / 1
        if self.grid is not False:
            alpha *= self.grid / 255.0 * pg.functions.clip_scalar(0.05 * pixels / (len(values) + 1), 0.0, 1.0)
        pen = self.tickPen()
        if pen.brush().style() == Qt.BrushStyle.SolidPattern:
            pen = QPen(pen)
            color = QColor(pen.color())
            color.setAlpha(int(alpha))
            pen.setColor(color)
        end = stop if self.grid is not False else stop + self.style["tickLength"] / 1.0 * direction
        positions: list[float | None] = []
        specs = []
        for v in values:
            x = (v * scale) - offset
            inside = x_min <= x <= x_max
            positions.append(x if inside else None)
            if inside:
                line = (QPointF(start, x), QPointF(end, x)) if axis == 0 else (QPointF(x, start), QPointF(x, end))
                specs.append((pen, *line))
        return positions, specs

    def _texts(self, p: QPainter, frame: Any, positions: list[float | None], strings: list[str]) -> list[Any]:
        """The labels drawn: each beside its tick, those that fit in the axis' bounds."""
        _, _, stop, _, axis, _, _ = frame
        font = p.font().key()
        if font != self._text_font:
            self._text_font, self._text_rects = font, {}
        rects = [None if x is None else self._text_rect(p, text) for x, text in zip(positions, strings, strict=False)]
        shown = [r for r in rects if r is not None]
        across = (max(r.width() for r in shown) if axis == 0 else max(r.height() for r in shown)) if shown else 0
        room = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][axis]
        if axis == 0:
            flags = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextDontClip
        else:
            flags = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextDontClip
        box = self.boundingRect()
        specs = []
        for x, rect, text in zip(positions, rects, strings, strict=False):
            if x is None or rect is None:
                continue
            height, width = rect.height(), rect.width()
            if axis == 0:
                where = QRectF(stop - room - width, x - (height / 2), width, height)
            else:
                where = QRectF(x - width / 2.0, stop + room, width, height)
            if box & where == where:
                specs.append((where, flags, text))
        self._updateMaxTextSize(across)
        return specs

    def _text_rect(self, p: QPainter, text: str) -> QRectF:
        """A label's box as pyqtgraph measures it (centred in 100x100, 0.8 of its height), once per text."""
        rect = self._text_rects.get(text)
        if rect is None:
            if len(self._text_rects) > 4096:
                self._text_rects.clear()
            rect = p.boundingRect(QRectF(0, 0, 100, 100), Qt.AlignmentFlag.AlignCenter, text)
            rect.setHeight(rect.height() * 0.8)
            self._text_rects[text] = rect
        return rect

    def drawPicture(self, p: QPainter, axisSpec: Any, tickSpecs: Any, textSpecs: Any) -> None:
        """pyqtgraph's drawPicture, its grid lines (the long ticks across the plot) filled as
        one-pixel rows: the same pixels as an aliased hairline, at a fortieth of the cost (a pan
        repaints the axis of every panel whose value range moved)."""
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        pen, p1, p2 = axisSpec
        p.setPen(pen)
        p.drawLine(p1, p2)
        for pen, p1, p2 in tickSpecs:
            if p1.y() == p2.y() and hairline(pen) and on_device(p):
                fill_row(p, pen, p1, p2)
            else:
                p.setPen(pen)
                p.drawLine(p1, p2)
        if self.style["tickFont"] is not None:
            p.setFont(self.style["tickFont"])
        p.setPen(self.textPen())
        p.setClipRect(self.boundingRect().toAlignedRect())
        for rect, flags, text in textSpecs:
            p.drawText(rect, int(flags), text)


class ValueAxis(DirectAxis):
    """A panel's value axis in its series' unit (`200 MB`, `3.4 ms`, `85 %`, `12k`), one level
    of ticks spaced so that their labels never touch; decades on a log axis."""

    def __init__(self, unit: str = "", **kw: object) -> None:
        super().__init__("left", **kw)
        self.unit = unit
        self._labels: dict[float, str] = {}

    def _line(self) -> float:
        font = self.style.get("tickFont") or QFont()
        return float(QFontMetricsF(font).height())

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        lo, hi = min(minVal, maxVal), max(minVal, maxVal)
        pick = log_ticks if self.logMode else value_ticks
        ticks = pick(lo, hi, size, self._line(), self.unit)
        self._labels = dict(ticks)
        values = [v for v, _ in ticks]
        spacing = values[1] - values[0] if len(values) > 1 else 1.0
        return [(spacing, values)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [self._labels.get(v, "") for v in values]


def on_device(p: QPainter) -> bool:
    """Painting onto pixels (not recorded for later) moved by whole pixels, as into the axis' cache
    (app/ui/charts.py): where a row of pixels is known to be what Qt draws for a hairline."""
    t = p.transform()
    whole = t.dx() == math.floor(t.dx()) and t.dy() == math.floor(t.dy())
    moved = t.type() in (QTransform.TransformationType.TxNone, QTransform.TransformationType.TxTranslate)
    return not isinstance(p.device(), QPicture) and moved and whole


def hairline(pen: QPen) -> bool:
    """A solid cosmetic pen one pixel wide (or 0: Qt's hairline)."""
    return pen.isCosmetic() and pen.widthF() <= 1.0 and pen.style() == Qt.PenStyle.SolidLine


def fill_row(p: QPainter, pen: QPen, p1: QPointF, p2: QPointF) -> None:
    """The aliased horizontal hairline p1-p2 as the pixels Qt's rasterizer gives it (as pyqtgraph
    records it in a QPicture and replays it, tests/ui/test_fast_paths.py): on the device, the row
    of y's floor, from the floor of the left x to the floor of the right one."""
    t = p.transform()
    a, b = t.map(p1), t.map(p2)
    x0, x1 = sorted((a.x(), b.x()))
    p.save()
    p.resetTransform()
    p.fillRect(QRect(math.floor(x0), math.floor(a.y()), math.floor(x1) - math.floor(x0) + 1, 1), pen.color())
    p.restore()


class TimeAxis(DirectAxis):
    """The shared time axis: seconds, m:ss or h:mm relative to the runs, or UTC dates and times
    when aligned on the clock; `on_scale` hears the words for under the axis when they change."""

    def __init__(self, absolute: bool, relative_to: str, **kw: object) -> None:
        super().__init__("bottom", **kw)
        self.absolute = absolute
        self.relative_to = relative_to
        self.scale_now: TimeScale | None = None
        self.on_scale: Callable[[TimeScale], None] | None = None
        self._labels: dict[float, str] = {}
        self._font = ""  # the key of the font the widths below are of
        self._fm = QFontMetricsF(QFont())
        self._widths: dict[str, float] = {}

    def _width(self, text: str) -> float:
        """A label's width, measured once (a pan tries ~40 labels for the spacing that fits)."""
        width = self._widths.get(text)
        if width is None:
            if len(self._widths) > 4096:
                self._widths.clear()
            width = self._widths[text] = self._fm.horizontalAdvance(text)
        return width

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        font = self.style.get("tickFont") or QFont()
        if font.key() != self._font:
            self._font, self._fm, self._widths = font.key(), QFontMetricsF(font), {}
        ticks, scale = time_ticks(
            min(minVal, maxVal), max(minVal, maxVal), size, self._width, self.absolute, self.relative_to
        )
        self._labels = dict(ticks)
        if scale != self.scale_now:
            self.scale_now = scale
            if self.on_scale is not None:
                self.on_scale(scale)
        values = [v for v, _ in ticks]
        return [(values[1] - values[0] if len(values) > 1 else 1.0, values)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [self._labels.get(v, "") for v in values]


def unlink_hidden(plot: pg.PlotItem) -> None:
    """The axes a plot hides (pyqtgraph's top and right ones, a panel's time axis: the strip under
    the column shows it) stop following its view: each pan moved and laid them out, for nothing
    drawn (the window never shows them again)."""
    for name in ("top", "right", "bottom", "left"):
        axis = plot.getAxis(name)
        if not axis.isVisible() and axis.linkedView() is not None:
            axis.unlinkFromView()
