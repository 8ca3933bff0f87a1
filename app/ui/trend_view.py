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
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from benchlens.app.analysis.runstats import STATS
from benchlens.app.errors import BenchlensError
from benchlens.app.store.library import current_user
from benchlens.app.trend import DEFAULT_GROUP, THROUGHPUT, trend_data
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import chart_theme

REGRESSION, IMPROVEMENT, SHIFT = "#d62728", "#2ca02c", "#7f7f7f"
POINT = "#1f77b4"
LABEL_FILL = (128, 128, 128, 60)  # under a change's label, readable over points in either theme
ROW_HEIGHT = 260  # pixels per group's chart


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


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
        self.group_box = QLineEdit()
        self.group_box.setPlaceholderText(" ".join(DEFAULT_GROUP))
        self.group_box.setToolTip("tags or facts to group runs by, separated by spaces")
        self.status = QLabel()
        self.status.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Metric"))
        bar.addWidget(self.metric_box, 2)
        bar.addWidget(QLabel("Statistic"))
        bar.addWidget(self.stat_box)
        bar.addWidget(QLabel("Group by"))
        bar.addWidget(self.group_box, 1)
        self.charts = pg.GraphicsLayoutWidget()
        self.scroller = QScrollArea()  # many groups: a chart keeps its height, the charts scroll
        self.scroller.setWidgetResizable(True)
        self.scroller.setWidget(self.charts)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.status)
        layout.addWidget(self.scroller, 1)
        self.metric_box.activated.connect(self.refresh)
        self.stat_box.currentTextChanged.connect(self.refresh)
        self.group_box.editingFinished.connect(self.refresh)
        session.runsChanged.connect(self.refresh)
        self.resize(1100, 760)
        self.refresh()

    # ---- data -------------------------------------------------------------------------------------
    def refresh(self, *_: object) -> None:
        metric = self.metric_box.currentText().strip() or THROUGHPUT
        try:
            group_by = self.group_box.text().split() or None
            self.data = trend_data(self.session.lib, metric, self.stat_box.currentText(), group_by)
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
            f"{_count(runs, 'run')} in {_count(len(groups), 'group')}; {_count(len(changes), 'change point')} "
            f"({_count(regress, 'regression')}). Click a point to open its run, a change line for B vs A; "
            "right-click a point to mark a known shift or leave the run out."
        )

    # ---- drawing ----------------------------------------------------------------------------------
    def _draw(self) -> None:
        self.charts.clear()
        theme = chart_theme(self.palette())
        self.charts.setBackground(theme.background)
        self.plots, self.change_lines = [], []
        for row, group in enumerate(self.data["groups"]):
            axis = RunAxis([p["time"] for p in group["points"]], orientation="bottom")
            plot = self.charts.addPlot(row=row, col=0, axisItems={"bottom": axis})
            for name in ("bottom", "left"):
                plot.getAxis(name).setTextPen(theme.text)
                plot.getAxis(name).setPen(theme.axis)
            self._draw_group(plot, group)
            self.plots.append(plot)
        self.charts.setMinimumHeight(ROW_HEIGHT * len(self.plots) if len(self.plots) > 2 else 0)

    def _draw_group(self, plot: pg.PlotItem, group: dict[str, Any]) -> None:
        key = ", ".join(f"{k} {v}" for k, v in group["key"].items() if v is not None) or "all runs"
        plot.setTitle(
            f"{html.escape(key)} <span style='color:#888'>({html.escape(group['metric'])})</span>", size="10pt"
        )
        plot.showGrid(x=False, y=True, alpha=0.2)
        plot.setLabel("left", f"{self.data['stat']} {group['metric'].split(':')[1] if ':' in group['metric'] else ''}")
        points = group["points"]
        x = np.arange(len(points), dtype=np.float64)  # run order; the axis names each run's day
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
            self._change_line(plot, change, group)
        for shift in group["known_shifts"]:
            line = pg.InfiniteLine(shift["index"] - 0.5, angle=90)
            line.setPen(pg.mkPen(SHIFT, width=1.5, style=Qt.PenStyle.DashLine))
            line.label = pg.InfLineLabel(line, text=f"known shift ({shift['by']})", position=0.95, color=SHIFT)
            plot.addItem(line)

    def _change_line(self, plot: pg.PlotItem, change: dict[str, Any], group: dict[str, Any]) -> None:
        color = REGRESSION if change["kind"] == "regression" else IMPROVEMENT
        line = pg.InfiniteLine(change["index"] - 0.5, angle=90, pen=pg.mkPen(color, width=2))
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


class RunAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """An axis of run order whose ticks name each run's start day (runs of a lab are nightly,
    with gaps: the order spaces them evenly, the labels keep the calendar)."""

    def __init__(self, times: list[float | None], **kw: Any) -> None:
        super().__init__(**kw)
        self.times = times

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        """Whole runs only, as many as fit at ~70 pixels a label."""
        step = max(1, math.ceil((maxVal - minVal) / max(size / 70, 1)))
        first = math.ceil(max(minVal, 0) / step) * step
        return [(float(step), [float(v) for v in range(first, int(maxVal) + 1, step)])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        out = []
        for v in values:
            i = round(v)
            t = self.times[i] if 0 <= i < len(self.times) and abs(v - i) < 1e-6 else None
            out.append(datetime.fromtimestamp(t, UTC).strftime("%m-%d") if t is not None else "")
        return out


def _levels(x: np.ndarray, y: np.ndarray, group: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """The level (median) of each stretch between change points and known shifts, as steps."""
    cuts = sorted({c["index"] for c in group["changes"]} | {s["index"] for s in group["known_shifts"]})
    xs, ys = [], []
    for a, b in zip([0, *cuts], [*cuts, len(y)], strict=True):
        if b > a:
            level = float(np.median(y[a:b]))
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
