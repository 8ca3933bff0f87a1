"""Drops, notes and load steps on the charts. A drop or note is a shaded band on every panel, its
edges in its run's colour (five runs' overlapping shades stay told apart), and a label in the
lane above the top panel, never over the curves: at the visible start of its band when zoomed
into it, over a bar in the run's colour across the band, a few of them with the rest counted
(app/lane.py, which places the export's labels too). A step-load run's steps: a dotted line where
each begins, its thread count at the foot of the top panel."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor

from benchlens.app.analysis.mechanism import worth_saying
from benchlens.app.figure import (
    BANDED,
    CAUSE_ALPHA,
    CAUSE_SPAN,
    RUG_ALPHA,
    RUG_SPAN,
    Reference,
    StepMark,
    as_rug,
)
from benchlens.app.lane import LANE_ROWS, LaneLabel, Placed, bars, lane_layout, more_text, weight
from benchlens.app.palette import readable
from benchlens.app.ui.panel_column import AXIS_WIDTH
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import ChartTheme

ROW_PX = 24  # a row of the label lane: a label and the bar under it
LAPTOP_PLOT_PX = 900  # a panel's width in a 1366 px window, when the panels are not laid out yet
GAP_PX = 6.0  # the space kept between the labels and the summary of those left out


@dataclass
class Label:
    x0: float
    x1: float
    item: pg.TextItem
    bar: pg.PlotCurveItem  # under the label, across its mark's span
    kind: str  # the mark's: note, drop, rise, recurring


def band_brush(color: QColor, kind: str) -> QBrush:
    """A drop's band in its run's colour: a latency rise hatched, a recurring dip lighter (as the
    export draws them, app/render.py)."""
    fill = QColor(color)
    if kind == "rise":
        fill.setAlpha(110)
        return QBrush(fill, Qt.BrushStyle.BDiagPattern)
    fill.setAlpha(30 if kind == "dip" else 40)
    return QBrush(fill)


def decided(label: str, state: str) -> str:
    """A drop's label after the user's decision: an accepted one is ticked."""
    return ("\u2713 " if state == "accepted" else "") + label


def add_band(plots: list[pg.PlotItem], x0: float, x1: float, fill: QBrush, run: int) -> list[pg.LinearRegionItem]:
    """The shaded stretch x0..x1 behind the curves of every panel; returns its items, a panel each."""
    items = []
    for plot in plots:
        band = pg.LinearRegionItem((x0, x1), movable=False)
        band.setZValue(-10)
        band.setProperty("run", run)
        plot.addItem(band, ignoreBounds=True)
        items.append(band)
    restyle(items, fill, rug=False)
    return items


def restyle(items: list[pg.LinearRegionItem], fill: QBrush, rug: bool) -> None:
    """A band across the panels, its edges in its colour; or, with `rug` (too many to shade,
    app/figure.py as_rug), a tick in that colour along the top of each panel."""
    edge = QColor(fill.color())
    edge.setAlpha(0 if rug else 150)
    if rug:
        tick = QColor(fill.color())
        tick.setAlpha(RUG_ALPHA)
        fill = QBrush(tick)
    pen = pg.mkPen(edge, width=1)
    for band in items:
        band.setSpan(1 - RUG_SPAN if rug else 0.0, 1.0)
        band.setBrush(fill)
        for line in band.lines:
            line.setPen(pen)


@dataclass
class Band:
    items: list[pg.LinearRegionItem]  # one per panel
    x0: float
    x1: float
    fill: QBrush
    kind: str
    run: int = 0


class Bands:
    """The shaded marks of the comparison: each a band across the panels, or a tick along their
    top while more are in view than the panels' width can tell apart (as_rug), decided again as
    the view changes: a 4-hour run's 190 drops are ticks, zoomed to one drop it is a band."""

    def __init__(self, bands: list[Band]) -> None:
        self.bands = [b for b in bands if b.kind in BANDED]  # a note is always a band
        self.x0 = np.array([b.x0 for b in self.bands])
        self.x1 = np.array([b.x1 for b in self.bands])
        self.rug = False

    def follow(self, left: float, right: float, width: float) -> None:
        """The view shows left..right on `width` px: the look for as many marks as are in it."""
        seen = int(np.count_nonzero((self.x1 >= left) & (self.x0 <= right)))
        rug = as_rug(["drop"] * seen, width)
        if rug != self.rug:
            self.rug = rug
            for b in self.bands:
                restyle(b.items, b.fill, rug)


@dataclass(frozen=True)
class CauseStrip:
    x0: float
    x1: float
    color: QColor
    run: int
    row: int
    said: str


class Shades:
    """The findings' bands and cause strips, drawn on every panel: `add` draws them on a panel
    built later (the first paint builds only the panels in view, app/ui/charts.py), in the look
    the others have now (a band, or a rug tick)."""

    def __init__(self, bands: list[Band], strips: list[CauseStrip]) -> None:
        self.all = bands
        self.strips = strips
        self.banded = Bands(bands)

    def add(self, plot: pg.PlotItem) -> None:
        for b in self.all:
            (item,) = add_band([plot], b.x0, b.x1, b.fill, b.run)
            b.items.append(item)
            if self.banded.rug and b in self.banded.bands:
                restyle([item], b.fill, rug=True)
        for c in self.strips:
            add_cause_strip([plot], c)


def add_cause_strip(plots: list[pg.PlotItem], c: CauseStrip) -> None:
    """When a drop's cause was there (where its verdict says it): a strip in the run's colour along
    the foot of every panel, a row per run, `said` its tooltip; as the export draws it
    (app/render.py)."""
    fill = QColor(c.color)
    fill.setAlpha(CAUSE_ALPHA)
    for plot in plots:
        span = (c.row * CAUSE_SPAN, (c.row + 1) * CAUSE_SPAN)
        strip = pg.LinearRegionItem((c.x0, c.x1), movable=False, brush=QBrush(fill), pen=pg.mkPen(None), span=span)
        strip.setZValue(-9)
        strip.setProperty("run", c.run)
        strip.setProperty("cause", c.said)
        strip.setToolTip(c.said)
        plot.addItem(strip, ignoreBounds=True)


def add_step_marks(plots: dict[int, pg.PlotItem], marks: list[StepMark], colors: dict[int, str], veil: QColor) -> None:
    """Where each load step of a step-load run begins: a dotted line in the run's colour on every
    panel (by its index: a panel built later gets its own), its thread count in that colour near
    the foot of the top panel (the drop labels take its top), one row per run so that runs
    stepping together do not write over each other."""
    rows = {r: k for k, r in enumerate(dict.fromkeys(m.run for m in marks))}
    for k, plot in plots.items():
        for m in marks:
            color = QColor(colors[m.run])
            line_color = QColor(color)
            line_color.setAlpha(150)
            line = pg.InfiniteLine(
                m.x,
                angle=90,
                movable=False,
                pen=pg.mkPen(line_color, width=1, style=Qt.PenStyle.DotLine),
                label=f"{m.threads:g} thr" if k == 0 else None,
                labelOpts={
                    "position": 0.05 + 0.13 * (rows[m.run] % 3),
                    "color": color,
                    "fill": pg.mkBrush(veil),
                    "anchors": [(0, 1), (0, 1)],
                },
            )
            line.setZValue(-5)
            line.setProperty("step", m.threads)
            plot.addItem(line, ignoreBounds=True)


def add_references(plots: dict[int, pg.PlotItem], refs: list[Reference], colors: dict[int, str]) -> None:
    """Limits of what a panel shows, as the export draws them (app/render.py): InnoDB's async and
    sync flush points on a checkpoint-age panel, a dashed line in the run's colour with its label;
    the panel's value range reaches the line. `plots` by panel index: those built now."""
    placed: dict[int, int] = {}  # lines per panel: their labels side by side, the points are close
    for ref in refs:
        if ref.panel not in plots:
            continue
        k = placed[ref.panel] = placed.get(ref.panel, -1) + 1
        color = QColor(colors.get(ref.run, "#777777"))
        line = pg.InfiniteLine(
            ref.y,
            angle=0,
            movable=False,
            pen=pg.mkPen(color, width=1, style=Qt.PenStyle.DashLine),
            label=ref.label,
            labelOpts={"position": 0.02 + 0.2 * (k % 4), "color": color, "anchors": [(0, 0), (0, 0)]},  # under it
        )
        line.setProperty("reference", ref.label)
        plots[ref.panel].addItem(line)  # not ignoreBounds: the auto range includes it


class LabelLane(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph is untyped
    """The lane above the top panel that holds the drops' and notes' labels (never over the
    curves): rows of its own, x-linked to the panels, their value axis' width at its left so its
    x lines up with theirs; hidden when there is nothing to label."""

    def __init__(self, theme: ChartTheme) -> None:
        super().__init__(background=theme.background)
        plot = self.getPlotItem()
        plot.setMenuEnabled(False)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        plot.hideAxis("bottom")
        left = plot.getAxis("left")
        left.setWidth(AXIS_WIDTH)
        left.setStyle(showValues=False)
        left.setPen(pg.mkPen(None))
        plot.vb.disableAutoRange()
        plot.vb.invertY(True)  # row 0 at the top
        plot.setContentsMargins(0, 2, 0, 0)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.rows = 0
        self.set_rows(1)
        self.hide()

    def set_rows(self, rows: int) -> None:
        """As many rows as the whole runs' labels take (set once per drawing: zooming never
        resizes the panels under the lane)."""
        self.rows = rows
        self.getPlotItem().vb.setYRange(0, rows, padding=0)
        self.setFixedHeight(rows * ROW_PX + 6)
        # set from inside a resize of the lane's plot, the new height does not reach it by itself
        self.getPlotItem().setGeometry(QRectF(0, 0, self.width(), self.height()))


class MarkLabels:
    """The labels of the marks in the lane, placed again whenever the view changes (app/lane.py:
    a few, the longest first, the rest counted): each in its run's colour made readable on the
    background, over a bar in that colour across its mark's visible span."""

    def __init__(self, lane: LabelLane, theme: ChartTheme, bands: Bands | None = None) -> None:
        self.lane = lane
        self.bands = bands  # their look follows the view too
        self.plot = lane.getPlotItem()
        self.theme = theme
        self.labels: list[Label] = []
        self.width = 0.0  # the lane's width its rows were set for (px)
        self.more = pg.TextItem("", color=theme.text, anchor=(1, 0))
        self.plot.addItem(self.more, ignoreBounds=True)
        self.plot.vb.sigRangeChanged.connect(self.place)
        self.plot.vb.sigResized.connect(self.place)

    @property
    def items(self) -> list[pg.TextItem]:
        return [lb.item for lb in self.labels]

    def add(self, x0: float, x1: float, text: str, color: QColor, kind: str) -> None:
        shown = QColor(readable(color.name(), self.theme.background))
        item = pg.TextItem(text, color=shown, anchor=(0, 0), fill=pg.mkBrush(self.theme.veil))
        bar = pg.PlotCurveItem(pen=pg.mkPen(color, width=3))
        self.plot.addItem(item, ignoreBounds=True)
        self.plot.addItem(bar, ignoreBounds=True)
        self.labels.append(Label(x0, x1, item, bar, kind))
        self.lane.show()

    def settle(self, view: pg.ViewBox) -> None:
        """The lane takes the rows the labels need in `view` (the top panel's, laid out when the
        lane may not be yet, showing the whole runs), then they are placed. Again when the lane
        is resized (a wider window needs fewer rows), never on a zoom or pan: the panels under the
        lane keep their place."""
        if self.labels:
            placed = self.place(view=view, rows=LANE_ROWS)
            self.lane.set_rows(max([pl.row + 1 for pl in placed] + [1]))
        self.width = view.width()
        self.place()

    def place(self, *_: object, view: pg.ViewBox | None = None, rows: int = 0) -> list[Placed]:
        """The labels whose marks are in `view` (the lane's own by default), where app/lane.py
        puts them in the lane's rows; the others hidden. Returns where they went."""
        vb = view if view is not None else self.plot.vb
        if view is None and abs(vb.width() - self.width) > 1 and vb.width() > 0:
            self.settle(vb)  # resized
            return []
        rows = rows or self.lane.rows
        (left, right), _ = vb.viewRange()
        px = vb.viewPixelSize()[0] or 1.0  # data units per pixel along x
        width = (right - left) / px
        if self.bands is not None:
            self.bands.follow(left, right, width)
        seen = [lb for lb in self.labels if lb.x1 >= left and lb.x0 <= right]
        spans = [
            LaneLabel(
                (lb.x0 - left) / px, (lb.x1 - left) / px, lb.item.boundingRect().width(), weight(lb.kind, lb.x0, lb.x1)
            )
            for lb in seen
        ]
        self.more.setText(more_text(len(seen), ["note"]))
        placed, hidden = lane_layout(spans, 0.0, width, self.more.boundingRect().width() + GAP_PX, rows)
        for lb in self.labels:
            lb.item.hide()
            lb.bar.hide()
        for pl, (a, b) in zip(placed, bars(spans, placed, 0.0, width), strict=True):
            lb = seen[pl.index]
            lb.item.setPos(left + pl.left * px, pl.row)
            lb.bar.setData([left + a * px, left + b * px], [pl.row + 0.93] * 2)
            lb.item.show()
            lb.bar.show()
        shown = {pl.index for pl in placed}
        self.more.setText(more_text(hidden, [lb.kind for k, lb in enumerate(seen) if k not in shown]))
        self.more.setPos(right, rows - 1)
        return placed


def draw_findings(
    session: Session, plots: list[pg.PlotItem], runs: list[int], theme: ChartTheme, new_lane: Callable[[], LabelLane]
) -> tuple[MarkLabels | None, Shades]:
    """Notes (grey) and what the throughput says, in the run's colour: drops, latency rises
    (hatched) and recurring dips (each dip a band, one label for the group); a band on every
    panel, a label on the top one that stays in view; where a verdict says when the cause was
    there, a strip along every panel's foot. Returns the labels, in a lane from `new_lane`
    (x-linked to the top panel); None, and no lane, when there is nothing to label. And the shades,
    for panels built later."""
    s, t = session, theme
    pending: list[tuple[float, float, str, QColor, str]] = []  # the labels, made once all are known
    rows: dict[int, int] = {}  # a run's row of cause strips, in the order the runs come
    strips: list[CauseStrip] = []
    bands: list[tuple[float, float, QBrush, int, str]] = []  # x0, x1, fill, run, kind
    for r in runs:
        color = QColor(s.color(r))

        def span(start: float, end: float, run: int = r) -> tuple[float, float]:
            x0, x1 = s.x_of(run, np.array([start, end]))
            return float(x0), float(x1)

        for note in s.notes(r):
            bands.append((*span(note.start, note.end), QBrush(t.note_fill), r, "note"))
            if note.label:
                pending.append((*span(note.start, note.end), note.label, QColor(t.text), "note"))
        found = s.findings(r)
        if found is None:
            continue
        for kind, items in (("drop", found.singles()), ("rise", found.rises)):
            for rd in items:
                label, state = s.drop_label(r, rd.drop)
                if state != "dismissed":
                    bands.append((*span(rd.drop.start, rd.drop.end), band_brush(color, kind), r, kind))
                    pending.append((*span(rd.drop.start, rd.drop.end), decided(label, state), color, kind))
                    if rd.cause is not None and worth_saying(rd.cause, rd.drop):
                        row = rows.setdefault(r, len(rows))
                        said = rd.cause.said(rd.drop)
                        strips.append(CauseStrip(*span(rd.cause.start, rd.cause.end), color, r, row, said))
        for group in found.recurring:
            for m in group.members:
                bands.append((*span(m.drop.start, m.drop.end), band_brush(color, "dip"), r, "dip"))
            pending.append((*span(group.pattern.start, group.pattern.end), group.label(), color, "recurring"))
    for c in strips:
        add_cause_strip(plots, c)
    shades = Shades(
        [Band(add_band(plots, x0, x1, fill, r), x0, x1, fill, kind, r) for x0, x1, fill, r, kind in bands], strips
    )
    shaded = shades.banded
    width = plots[0].vb.width() if plots else 0.0  # at the first drawing, before the layout: a laptop's
    shaded.follow(-math.inf, math.inf, width if width > 100 else LAPTOP_PLOT_PX)  # whole runs
    if not pending:  # no lane: an x-linked plot of its own costs every pan and the first paint
        return None, shades
    lane = new_lane()
    lane.setXLink(plots[0])
    labels = MarkLabels(lane, t, shaded)
    for x0, x1, text, color, kind in pending:
        labels.add(x0, x1, text, color, kind)
    labels.settle(plots[0].vb)
    return labels, shades
