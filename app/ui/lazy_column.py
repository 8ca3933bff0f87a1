"""Building the column of panels in view first (issue 24's speed target: first paint <= 150 ms
at 1366x768). A panel below the fold is a placeholder of its height until it is scrolled into
view, or until the event loop is free after the first paint (app/ui/charts.py builds it then);
whole runs are known before that from what the library says of its series."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractScrollArea, QSizePolicy, QWidget

from benchlens.app.analysis.heatmap import heatmap_ref
from benchlens.app.analysis.layout import Panel
from benchlens.app.ui.heatmap import as_lines
from benchlens.app.ui.panel_column import MIN_PANEL_PX
from benchlens.app.ui.session import Session

BUILD_MS = 0  # after the first paint, one panel below the fold is built per pass of the event loop


class Placeholder(QWidget):
    """Where a panel not built yet goes: its height, so the column and its scroll bar are
    already what they will be."""

    def __init__(self, index: int, panel: Panel) -> None:
        super().__init__()
        self.index = index
        self.setMinimumHeight(max(MIN_PANEL_PX, panel.height or 0))
        # as a panel (a QGraphicsView) is laid out: the column shares its height the same way
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)


def in_view(widget: QWidget) -> bool:
    """Whether any of the widget (a panel's plot area: its view's viewport) shows in the scrolling column."""
    shown = widget.viewport() if isinstance(widget, QAbstractScrollArea) else widget
    return not shown.visibleRegion().isEmpty()


def data_in_view(widget: pg.PlotWidget) -> bool:
    """Whether any of a built panel's plot area shows in the scrolling column: the rows of its view
    box, across the panel's width (the curves and marks, clipped to the view box; the value axis
    beside it, whose labels are clipped to its rows). A panel of which only the title row or the
    margin under the plot shows has nothing of a pan to draw: its curves catch up when scrolled to."""
    shown = widget.viewport()
    rows = widget.mapFromScene(widget.getPlotItem().vb.sceneBoundingRect()).boundingRect()
    return shown.visibleRegion().intersects(QRect(0, rows.top(), shown.width(), rows.height()))


def deferrable(panel: Panel) -> bool:
    """A panel that can wait: not a heatmap (whether it becomes one takes its data)."""
    return heatmap_ref(panel.shown()) is None


def extent(session: Session, panel: Panel, runs: list[int]) -> tuple[float, float] | None:
    """The x extent of the series a panel not built yet will draw (as its curves will have it:
    first and last time), from the library's record of each series; None when it has none."""
    s = session
    lo, hi = np.inf, -np.inf
    for ref in as_lines(s, panel, runs).shown():
        for r in runs:
            info = s.rundata.info(r, ref)
            if info is None or not info.n or info.start is None or info.end is None:
                continue
            x0, x1 = s.x_of(r, np.array([info.start, info.end], dtype=np.float64))
            lo, hi = min(lo, float(x0)), max(hi, float(x1))
    return (lo, hi) if lo <= hi else None
