"""The step-load view in the window: TPS and, under it, latency against concurrency (latency is
the saturation story when TPS is flat), one line of points per step-load run in its colour, a
fixed-concurrency run as one diamond; on a log2 thread axis shared by both plots. The numbers are
app/stepchart.py's (the Summary's step medians over whole runs), and Export… writes the same
chart as `benchlens export --steps` does (PNG, SVG, PDF or CSV)."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLabel, QMessageBox, QPushButton, QVBoxLayout, QWidget

from benchlens.app import stepplot
from benchlens.app.errors import BenchlensError
from benchlens.app.render import SIZES
from benchlens.app.stepchart import StepChart, step_chart, write_csv
from benchlens.app.ui.panel_column import color_axes
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import chart_theme

FORMATS = "PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf);;CSV data (*.csv)"


class StepsView(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.chart: StepChart | None = None
        self._shown: tuple[tuple[int, ...], int] | None = None  # the runs drawn, and the library's run count
        theme = chart_theme()
        self.tps = pg.PlotWidget(background=theme.background)
        self.latency = pg.PlotWidget(background=theme.background)
        for plot, title in ((self.tps, "Throughput (tps)"), (self.latency, "Latency")):
            plot.setTitle(title, size="9pt", color=theme.text)
            plot.showGrid(x=True, y=True, alpha=theme.grid_alpha)
            plot.getAxis("left").enableAutoSIPrefix(False)
            plot.getPlotItem().setMenuEnabled(False)
            color_axes(plot.getPlotItem(), theme)
        self.latency.setXLink(self.tps)
        self.latency.setLabel("bottom", "threads (log2 axis)", color=theme.text)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.export_button = QPushButton("Export step chart…")
        self.export_button.clicked.connect(self.export_dialog)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.tps, 1)
        lay.addWidget(self.latency, 1)
        lay.addWidget(self.note)
        lay.addWidget(self.export_button, 0, Qt.AlignmentFlag.AlignRight)
        self.setMinimumWidth(280)

    def refresh(self, run_ids: list[int]) -> None:
        """The chart of these runs (empty, with the reason, when none logs a thread count)."""
        key = (tuple(run_ids), len(self.session.runs()))
        if key == self._shown:  # a zoom or pan: the chart is of whole runs, already drawn
            return
        self._shown = key
        self.tps.clear()
        self.latency.clear()
        try:
            self.chart = step_chart(self.session.rundata, run_ids) if run_ids else None
        except BenchlensError as e:
            self.chart = None
            self.note.setText(f"<i>{e}</i>")
        if self.chart is None:
            self.export_button.setEnabled(False)
            return
        self.export_button.setEnabled(True)
        self.note.setText("")
        self._draw(self.chart)

    def _draw(self, chart: StepChart) -> None:
        ticks: set[float] = set()
        tops = {"tps": 0.0, "lat": 0.0}
        for line in chart.lines:
            color = self.session.color(line.run.id)
            x = np.log2([p.threads for p in line.points])
            ticks.update(p.threads for p in line.points)
            style = {
                "pen": None if line.fixed else pg.mkPen(color, width=2),
                "symbol": "d" if line.fixed else "o",
                "symbolSize": 11 if line.fixed else 7,
                "symbolBrush": color,
                "symbolPen": color,
            }
            tps = np.array([p.tps for p in line.points])
            lat = np.array([p.latency for p in line.points])
            self.tps.plot(x, tps, name=line.run.name, **style)
            if np.isfinite(lat).any():
                self.latency.plot(x, lat, **style)
            tops["tps"] = max(tops["tps"], float(np.nanmax(tps)))
            tops["lat"] = max(tops["lat"], float(np.nanmax(lat)) if np.isfinite(lat).any() else 0.0)
        axis_ticks = [[(math.log2(t), f"{t:g}") for t in sorted(ticks)]]
        for plot, top in ((self.tps, tops["tps"]), (self.latency, tops["lat"])):
            plot.getAxis("bottom").setTicks(axis_ticks)
            if top > 0:  # from 0: a gap between runs reads at its true size
                plot.setYRange(0, top * 1.1, padding=0)
        self.latency.setTitle(f"Latency ({chart.latency})" if chart.latency else "Latency (not logged)")

    def export_dialog(self) -> None:
        if self.chart is None:
            return
        out, _ = QFileDialog.getSaveFileName(self, "Export step chart", "steps.png", FORMATS)
        if out:
            self.export(Path(out))

    def export(self, out: Path) -> Path | None:
        """The step chart as PNG, SVG, PDF (blog size) or CSV; a failure is said, not raised."""
        if self.chart is None:
            return None
        try:
            if out.suffix.lower() == ".csv":
                write_csv(self.chart, out)
            else:
                stepplot.export(self.chart, out, SIZES["blog"])
        except (OSError, ValueError, BenchlensError) as e:
            QMessageBox.warning(self, "Export step chart", f"Cannot write {out}: {e}")
            return None
        return out
