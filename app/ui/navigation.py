"""Where the charts are in time: the visible x range, zooms and pans from the keyboard, and the
zoom history (Back/Forward: Alt+Left/Right, the mouse's back and forward buttons). The charts'
top panel leads; the others and the time axis strip are x-linked to it."""

from __future__ import annotations

from collections.abc import Callable

import pyqtgraph as pg
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent

from benchlens.app.ui.session import Session
from benchlens.app.ui.zoom_history import Range, ZoomHistory

SETTLE_MS = 400  # a zoom or pan enters the history once the view has been still this long


WHOLE_PAD = 0.01  # whole runs leave this fraction of their span free at each end
DROP_MARGIN = 0.25  # a drop zoomed to: this fraction of its length shown before and after it
MIN_MARGIN_S = 1.0  # ... and never less than this (a 1 s drop still shows the samples around it)


def around(x0: float, x1: float) -> tuple[float, float]:
    """The x range that shows a drop from x0 to x1: the drop, with a quarter of its length on
    each side (issue 24: a 40 s drop showed the whole 200 s run, padded by twice its length)."""
    margin = max((x1 - x0) * DROP_MARGIN, MIN_MARGIN_S)
    return x0 - margin, x1 + margin


def fit_whole(plots: list[pg.PlotItem], whole: Range) -> None:
    """Whole runs: every panel fits its values, and the time axis shows `whole` (every run's
    extent). Set explicitly: the panels' x links go both ways, so an x auto range would be
    switched off by the first follower resized and settle on one panel's own series."""
    for p in plots:
        p.enableAutoRange(axis=pg.ViewBox.YAxis)
    if whole is None:
        plots[0].enableAutoRange(axis=pg.ViewBox.XAxis)
        return
    pad = (whole[1] - whole[0]) * WHOLE_PAD or 0.5
    plots[0].setXRange(whole[0] - pad, whole[1] + pad, padding=0)


class TimeNavigator(QObject):
    def __init__(self, session: Session, plots: Callable[[], list[pg.PlotItem]], parent: QObject) -> None:
        super().__init__(parent)
        self.session = session
        self.plots = plots
        self.history = ZoomHistory()
        self._key: object = None  # what the visited ranges are ranges of
        self.whole: Range = None  # every run's x extent (the charts set it when they rebuild)
        self.settle = QTimer(self)
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self._settled)

    def showing(self, key: object) -> None:
        """The charts were rebuilt for these (alignment, runs ...): ranges of others mean nothing now."""
        if key != self._key:
            self.history.reset()
            self._key = key

    def visible_range(self) -> Range:
        """The x range the charts show; None while they fit whole runs (never zoomed, or `0`): the
        view box may not have fitted them yet, and whole runs are what it will show. Mouse zooms
        and pans move the view without telling the session: export and summary read it here."""
        plots = self.plots()
        if not plots:
            return None
        vb = plots[0].vb
        if vb.autoRangeEnabled()[0]:
            return None
        x0, x1 = (float(x) for x in vb.viewRange()[0])
        if self.whole is not None:
            pad = (self.whole[1] - self.whole[0]) * WHOLE_PAD or 0.5
            fit = (self.whole[0] - pad, self.whole[1] + pad)
            if abs(x0 - fit[0]) + abs(x1 - fit[1]) <= 1e-9 * max(1.0, abs(fit[1])):
                return None
        return x0, x1

    def zoom_to(self, x0: float, x1: float) -> None:
        plots = self.plots()
        if plots:
            plots[0].setXRange(x0, x1, padding=0)
            self.session.comparison.x_range = (x0, x1)

    # ---- zoom history -------------------------------------------------------------------------
    def _settled(self) -> None:
        """The view has been still for SETTLE_MS: the range is visited, and is the view's."""
        r = self.visible_range()
        self.session.comparison.x_range = r
        self.history.visit(r)

    def back(self) -> bool:
        """Back to the x range shown before."""
        self._settled_now()
        moved, r = self.history.back()
        if moved:
            self._show(r)
        return moved

    def forward(self) -> bool:
        self._settled_now()
        moved, r = self.history.forward()
        if moved:
            self._show(r)
        return moved

    def _settled_now(self) -> None:
        """A zoom still settling counts as visited before going back from it."""
        if self.settle.isActive():
            self.settle.stop()
            self._settled()

    def _show(self, r: Range) -> None:
        plots = self.plots()
        if not plots:
            return
        if r is None:
            fit_whole(plots, self.whole)
        else:
            plots[0].setXRange(*r, padding=0)
        self.settle.stop()
        self.session.comparison.x_range = r

    # ---- keyboard zoom and pan ----------------------------------------------------------------
    def key(self, event: QKeyEvent) -> bool:
        """+/- zoom, arrows pan, 0 or Home whole runs; False for any other key."""
        plots = self.plots()
        if not plots:
            return False
        vb = plots[0].vb
        (x0, x1), _ = vb.viewRange()
        w = x1 - x0
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            vb.setXRange(x0 + w / 4, x1 - w / 4, padding=0)
        elif key == Qt.Key.Key_Minus:
            vb.setXRange(x0 - w / 2, x1 + w / 2, padding=0)
        elif key == Qt.Key.Key_Left:
            vb.setXRange(x0 - w / 5, x1 - w / 5, padding=0)
        elif key == Qt.Key.Key_Right:
            vb.setXRange(x0 + w / 5, x1 + w / 5, padding=0)
        elif key in (Qt.Key.Key_0, Qt.Key.Key_Home):
            fit_whole(plots, self.whole)
            self.session.comparison.x_range = None
            return True
        else:
            return False
        self.session.comparison.x_range = tuple(vb.viewRange()[0])  # type: ignore[assignment]
        return True
