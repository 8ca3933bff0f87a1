"""The window's value and time axes: pyqtgraph AxisItems whose ticks and labels come from
app/ticks.py, the formatter the exports use, so the window and a PNG read the same strings."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

from benchlens.app.ticks import TimeScale, log_ticks, time_ticks, value_ticks


class ValueAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
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


class TimeAxis(pg.AxisItem):  # type: ignore[misc]
    """The shared time axis: seconds, m:ss or h:mm relative to the runs, or UTC dates and times
    when aligned on the clock; `on_scale` hears the words for under the axis when they change."""

    def __init__(self, absolute: bool, relative_to: str, **kw: object) -> None:
        super().__init__("bottom", **kw)
        self.absolute = absolute
        self.relative_to = relative_to
        self.scale_now: TimeScale | None = None
        self.on_scale: Callable[[TimeScale], None] | None = None
        self._labels: dict[float, str] = {}

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        fm = QFontMetricsF(self.style.get("tickFont") or QFont())
        ticks, scale = time_ticks(
            min(minVal, maxVal), max(minVal, maxVal), size, fm.horizontalAdvance, self.absolute, self.relative_to
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
