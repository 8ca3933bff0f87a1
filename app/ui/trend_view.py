"""View > Trend: the trend across the library's runs (app/trend.py's data, as `benchlens trend`
gives it), one chart per group of comparable runs.

A point per run (by run start; its tags in the tooltip); the level between change points drawn as
steps; each change point a vertical line, red for a regression and green for an improvement,
labelled with its relative change; a known shift a grey dashed line. Clicking a point opens that
run; clicking a change point's line opens B vs A of the runs either side of it. A point's
right-click menu marks it as a known shift or leaves it out of the trend (kept in the library
with the OS user name, app/store/trend_tables.py) or takes either mark back."""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QMenu, QVBoxLayout, QWidget

from benchlens.app.analysis.runstats import STATS
from benchlens.app.errors import BenchlensError
from benchlens.app.store.library import current_user
from benchlens.app.trend import THROUGHPUT, trend_data
from benchlens.app.ui.session import Session

REGRESSION, IMPROVEMENT, SHIFT = "#d62728", "#2ca02c", "#7f7f7f"
POINT = "#1f77b4"
LABEL_FILL = (128, 128, 128, 60)  # under a change's label, readable over points in either theme
ROW_HEIGHT = 260  # pixels per group's chart


def _day(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M UTC") if t is not None else "?"


def point_tip(point: dict[str, Any], unit: str = "") -> str:
    """A point's tooltip: the run, when, its value and its tags."""
    tags = point.get("tags") or {}
    lines = [point["run"], _day(point.get("time")), f"{point['value']:.6g} {unit}".strip()]
    lines += [f"{k}: {v}" for k, v in tags.items()] or ["no tags"]
    return "\n".join(lines)


class TrendWindow(QWidget):
    """The Trend window. `open_run(run_id)` and `open_pair(a, b)` are the main window's."""

    def __init__(
        self,
        session: Session,
        open_run: Callable[[int], None],
        open_pair: Callable[[int, int], None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Trend")
        self.session = session
        self.open_run = open_run
        self.open_pair = open_pair
        self.data: dict[str, Any] = {}
        self.last_menu: QMenu | None = None
        self.plots: list[pg.PlotItem] = []
        self.change_lines: list[tuple[pg.InfiniteLine, dict[str, Any]]] = []
        self.metric_box = QComboBox()
        self.metric_box.setEditable(True)
        self.metric_box.addItem(THROUGHPUT)
        for spec in ("sysbench:lat_ms:95", "server:tps"):
            self.metric_box.addItem(spec)
        self.stat_box = QComboBox()
        self.stat_box.addItems(list(STATS))
        self.status = QLabel()
        self.status.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Metric"))
        bar.addWidget(self.metric_box, 1)
        bar.addWidget(QLabel("Statistic"))
        bar.addWidget(self.stat_box)
        self.charts = pg.GraphicsLayoutWidget()
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.status)
        layout.addWidget(self.charts, 1)
        self.metric_box.activated.connect(self.refresh)
        self.stat_box.currentTextChanged.connect(self.refresh)
        session.runsChanged.connect(self.refresh)
        self.resize(1100, 760)
        self.refresh()

    # ---- data -------------------------------------------------------------------------------------
    def refresh(self, *_: object) -> None:
        metric = self.metric_box.currentText().strip() or THROUGHPUT
        try:
            self.data = trend_data(self.session.lib, metric, self.stat_box.currentText())
        except BenchlensError as e:
            self.data = {"groups": []}
            self.status.setText(html.escape(str(e)))
        else:
            self.status.setText(self._summary())
        self._draw()

    def _summary(self) -> str:
        groups = self.data["groups"]
        if not groups:
            return "No run has this metric."
        runs = sum(len(g["points"]) for g in groups)
        changes = [c for g in groups for c in g["changes"]]
        regress = sum(c["kind"] == "regression" for c in changes)
        return (
            f"{runs} runs in {len(groups)} group{'s' * (len(groups) != 1)}; {len(changes)} change points "
            f"({regress} regressions). Click a point to open its run, a change line for B vs A; "
            "right-click a point to mark a known shift or leave the run out."
        )

    # ---- drawing ----------------------------------------------------------------------------------
    def _draw(self) -> None:
        self.charts.clear()
        self.plots, self.change_lines = [], []
        for row, group in enumerate(self.data["groups"]):
            plot = self.charts.addPlot(row=row, col=0, axisItems={"bottom": pg.DateAxisItem()})
            self._draw_group(plot, group)
            self.plots.append(plot)
        self.charts.setMinimumHeight(max(200, ROW_HEIGHT * len(self.plots)) if len(self.plots) > 3 else 0)

    def _draw_group(self, plot: pg.PlotItem, group: dict[str, Any]) -> None:
        key = ", ".join(f"{k} {v}" for k, v in group["key"].items() if v is not None) or "all runs"
        plot.setTitle(
            f"{html.escape(key)} <span style='color:#888'>({html.escape(group['metric'])})</span>", size="10pt"
        )
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setLabel("left", f"{self.data['stat']} {group['metric'].split(':')[1] if ':' in group['metric'] else ''}")
        points = group["points"]
        x = np.array([p["time"] if p["time"] is not None else math.nan for p in points], np.float64)
        y = np.array([p["value"] for p in points], np.float64)
        plot.plot(*_levels(x, y, group), pen=pg.mkPen("#999", width=1.5), connect="pairs")
        scatter = pg.ScatterPlotItem(
            x=x,
            y=y,
            data=list(range(len(points))),
            size=8,
            brush=pg.mkBrush(POINT),
            pen=pg.mkPen("w", width=0.5),
            hoverable=True,
            hoverSize=11,
            tip=partial(self._tip, group),
        )
        scatter.sigClicked.connect(partial(self._clicked, group))
        plot.addItem(scatter)
        scatter.setAcceptedMouseButtons(Qt.MouseButton.LeftButton | Qt.MouseButton.RightButton)
        for change in group["changes"]:
            self._change_line(plot, group, change, x)
        for shift in group["known_shifts"]:
            line = pg.InfiniteLine(x[shift["index"]] - 0.5 * _gap(x, shift["index"]), angle=90)
            line.setPen(pg.mkPen(SHIFT, width=1.5, style=Qt.PenStyle.DashLine))
            line.label = pg.InfLineLabel(line, text=f"known shift ({shift['by']})", position=0.95, color=SHIFT)
            plot.addItem(line)

    def _change_line(self, plot: pg.PlotItem, group: dict[str, Any], change: dict[str, Any], x: np.ndarray) -> None:
        color = REGRESSION if change["kind"] == "regression" else IMPROVEMENT
        at = x[change["index"]] - 0.5 * _gap(x, change["index"])
        line = pg.InfiniteLine(at, angle=90, pen=pg.mkPen(color, width=2))
        line.setHoverPen(pg.mkPen(color, width=4))
        line.setCursor(Qt.CursorShape.PointingHandCursor)
        pct = f"{change['change']:+.1%}" if change["change"] is not None else "from 0"
        line.setToolTip(
            f"{change['kind']} at {change['run']}: {change['before']:.6g} -> {change['after']:.6g} ({pct}, "
            f"p {change['p']:.2g})\nclick: {change['run']} vs {change['previous']}"
        )
        pg.InfLineLabel(line, text=pct, position=0.5, color=color, fill=LABEL_FILL, anchors=[(0, 0.5), (0, 0.5)])
        line.sigClicked.connect(partial(self._open_change, change, group))
        plot.addItem(line)
        self.change_lines.append((line, change))

    # ---- interaction ------------------------------------------------------------------------------
    def _tip(self, group: dict[str, Any], x: float, y: float, data: int) -> str:
        return point_tip(group["points"][int(data)])

    def _clicked(self, group: dict[str, Any], _item: object, points: Any, ev: Any) -> None:
        if not len(points):
            return
        point = group["points"][int(points[0].data())]
        if ev is not None and ev.button() == Qt.MouseButton.RightButton:
            self.point_menu(point, group)
        else:
            self.open_run(point["id"])

    def _open_change(self, change: dict[str, Any], group: dict[str, Any], *_: object) -> None:
        before = group["points"][change["index"] - 1]
        self.open_pair(before["id"], change["id"])

    def point_menu(self, point: dict[str, Any], group: dict[str, Any]) -> QMenu:
        menu = QMenu(self)
        menu.addAction(f"Open {point['run']}", partial(self.open_run, point["id"]))
        shifted = any(s["id"] == point["id"] for s in group["known_shifts"])
        menu.addAction(
            "Not a known shift" if shifted else "Mark as a known shift (history splits here)",
            partial(self.mark, point["id"], "shift", not shifted),
        )
        menu.addAction("Leave this run out of the trend", partial(self.mark, point["id"], "out", True))
        for out in group["left_out"]:
            menu.addAction(
                f"Put {out['run']} back (left out by {out['by']})", partial(self.mark, out["id"], "out", False)
            )
        menu.popup(QCursor.pos())
        self.last_menu = menu  # kept (and read by the tests)
        return menu

    def mark(self, run_id: int, kind: str, on: bool) -> None:
        """A mark kept in the library with who set it; the trend is drawn again."""
        try:
            self.session.lib.set_mark(run_id, kind, on, current_user())
        except BenchlensError as e:
            self.status.setText(html.escape(str(e)))
            return
        self.refresh()


def _gap(x: np.ndarray, i: int) -> float:
    """Half-way back to the previous point (a change line sits between the two runs)."""
    return float(x[i] - x[i - 1]) if i > 0 and math.isfinite(x[i - 1]) else 0.0


def _levels(x: np.ndarray, y: np.ndarray, group: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The mean level of each stretch between change points and known shifts, as steps."""
    cuts = sorted({c["index"] for c in group["changes"]} | {s["index"] for s in group["known_shifts"]})
    xs, ys = [], []
    for a, b in zip([0, *cuts], [*cuts, len(y)], strict=True):
        if b > a:
            level = float(np.mean(y[a:b]))
            xs += [x[a], x[b - 1]]
            ys += [level, level]
    return np.array(xs), np.array(ys)


def open_trend(window: Any) -> TrendWindow:
    """View > Trend from the main window: a point opens its run, a change point B vs A."""

    def open_run(run_id: int) -> None:
        window.session.comparison.runs.clear()
        window.session.add_runs([run_id])
        window.activateWindow()

    def open_pair(a: int, b: int) -> None:
        window.session.comparison.runs.clear()
        window.session.add_runs([a, b])
        window.changed.show_diff(a, b)
        window.show_changed_tab()
        window.activateWindow()

    trend = TrendWindow(window.session, open_run, open_pair, window)
    window.trend_window = trend  # kept (and read by the tests)
    trend.show()
    return trend
