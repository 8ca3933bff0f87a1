"""The chart column's panels as lists (app/ui/charts.py's ComparisonView is one): those built so
far, and every panel, built first (the panels below the fold are built after the first paint:
app/ui/lazy_column.py) and on the time range shown (a panel out of view follows a pan once
scrolled to: app/ui/chart_input.py's OffsetViewBox)."""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QTimer

from benchlens.app.ui.chart_input import ChartInput
from benchlens.app.ui.curves import Decimated
from benchlens.app.ui.heatmap import HeatmapPanel
from benchlens.app.ui.panel_column import PanelPlot
from benchlens.app.ui.readout import Curve


class PanelLists(ChartInput):
    """The panels built so far, and the public lists of every panel; the column is the subclass's."""

    _later: QTimer  # builds the next panel below the fold
    _decimated: Decimated

    def complete(self) -> None:
        """Every panel built now (the public lists below are of every panel)."""
        while self._pending:
            self._build_late(min(self._pending))
        self._later.stop()
        for plot in self._plots.values():  # on the time range shown, those scrolled off too
            plot.vb.catch_up()

    @property
    def waiting(self) -> list[int]:
        """The panels not built yet (below the fold until the event loop is free)."""
        return sorted(self._pending)

    def built_plots(self) -> list[pg.PlotItem]:
        """The panels' plots built so far, in panel order: the top one first."""
        return [self._plots[i] for i in sorted(self._plots)]

    @property
    def plots(self) -> list[pg.PlotItem]:
        self.complete()
        return self.built_plots()

    @property
    def widgets(self) -> list[PanelPlot]:
        self.complete()
        return [self._widgets[i] for i in sorted(self._widgets)]

    @property
    def lines(self) -> list[pg.InfiniteLine]:
        self.complete()
        return [self._lines[i] for i in sorted(self._lines)]

    @property
    def curves(self) -> list[Curve]:
        self.complete()
        return self._curves

    @property
    def decimated(self) -> Decimated:
        self.complete()
        return self._decimated

    @property
    def heatmaps(self) -> dict[int, HeatmapPanel]:
        self.complete()
        return self._heatmaps
