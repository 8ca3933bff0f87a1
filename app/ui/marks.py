"""Drops, notes and load steps on the charts. A drop or note is a shaded band on every panel and a
label on the top panel that stays readable whatever the zoom: inside the visible value range (at
its top, on a veil), at the visible start of its band when zoomed into it, and in the first of
four rows where it overlaps no other label, so five runs' drops stay legible; the export places
its labels the same way (app/render.py). A step-load run's steps: a dotted line where each
begins, its thread count at the foot of the top panel."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from benchlens.app.analysis.mechanism import worth_saying
from benchlens.app.figure import CAUSE_ALPHA, CAUSE_SPAN, Reference, StepMark
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import ChartTheme

ROWS = 4  # label rows under the top of the panel; beyond them a label shares the emptiest row
GAP_PX = 6.0  # the space kept between two labels in one row


@dataclass
class Label:
    x0: float
    x1: float
    item: pg.TextItem


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


def add_band(plots: list[pg.PlotItem], x0: float, x1: float, fill: QBrush, run: int) -> None:
    """The shaded stretch x0..x1 behind the curves of every panel."""
    for plot in plots:
        band = pg.LinearRegionItem((x0, x1), movable=False, brush=fill, pen=pg.mkPen(None))
        band.setZValue(-10)
        band.setProperty("run", run)
        plot.addItem(band, ignoreBounds=True)


def add_cause_strip(
    plots: list[pg.PlotItem], x0: float, x1: float, color: QColor, run: int, row: int, said: str
) -> None:
    """When a drop's cause was there (where its verdict says it): a strip in the run's colour along
    the foot of every panel, a row per run, `said` its tooltip; as the export draws it
    (app/render.py)."""
    fill = QColor(color)
    fill.setAlpha(CAUSE_ALPHA)
    for plot in plots:
        span = (row * CAUSE_SPAN, (row + 1) * CAUSE_SPAN)
        strip = pg.LinearRegionItem((x0, x1), movable=False, brush=QBrush(fill), pen=pg.mkPen(None), span=span)
        strip.setZValue(-9)
        strip.setProperty("run", run)
        strip.setProperty("cause", said)
        strip.setToolTip(said)
        plot.addItem(strip, ignoreBounds=True)


def add_step_marks(plots: list[pg.PlotItem], marks: list[StepMark], colors: dict[int, str], veil: QColor) -> None:
    """Where each load step of a step-load run begins: a dotted line in the run's colour on every
    panel, its thread count in that colour near the foot of the top panel (the drop labels take
    its top), one row per run so that runs stepping together do not write over each other."""
    rows = {r: k for k, r in enumerate(dict.fromkeys(m.run for m in marks))}
    for k, plot in enumerate(plots):
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


def add_references(plots: list[pg.PlotItem], refs: list[Reference], colors: dict[int, str]) -> None:
    """Limits of what a panel shows, as the export draws them (app/render.py): InnoDB's async and
    sync flush points on a checkpoint-age panel, a dashed line in the run's colour with its label;
    the panel's value range reaches the line."""
    placed: dict[int, int] = {}  # lines per panel: their labels side by side, the points are close
    for ref in refs:
        if not 0 <= ref.panel < len(plots):
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


class MarkLabels:
    """The labels of the marks on one panel, placed again whenever its view changes."""

    def __init__(self, plot: pg.PlotItem, veil: QColor) -> None:
        self.plot = plot
        self.veil = veil
        self.labels: list[Label] = []
        plot.vb.sigRangeChanged.connect(self.place)
        plot.vb.sigResized.connect(self.place)

    @property
    def items(self) -> list[pg.TextItem]:
        return [lb.item for lb in self.labels]

    def add(self, x0: float, x1: float, text: str, color: QColor) -> None:
        item = pg.TextItem(text, color=color, anchor=(0, 0), fill=pg.mkBrush(self.veil))
        item.setZValue(20)  # over the curves: the veil keeps it readable
        self.plot.addItem(item, ignoreBounds=True)
        self.labels.append(Label(x0, x1, item))
        self.place()

    def place(self, *_: object) -> None:
        """Each label at the top of the visible value range, at its band's visible start, in the
        first row where it overlaps none placed before it (pixels); hidden when its band is out
        of view."""
        vb = self.plot.vb
        (left, right), (_, top) = vb.viewRange()
        px = vb.viewPixelSize()[0] or 1.0  # data units per pixel along x
        ends: list[list[float]] = [[] for _ in range(ROWS)]  # per row, the right edges placed
        for lb in sorted(self.labels, key=lambda lb: max(lb.x0, left)):
            if lb.x1 < left or lb.x0 > right:
                lb.item.hide()
                continue
            start = (max(lb.x0, left) - left) / px
            width = lb.item.boundingRect().width() + GAP_PX
            start = min(start, max(0.0, (right - left) / px - width))  # pulled left to stay inside
            row = next((k for k in range(ROWS) if not any(start < e for e in ends[k])), None)
            if row is None:  # every row is taken there: the row that ends first
                row = min(range(ROWS), key=lambda k: max(ends[k]))
            ends[row].append(start + width)
            lb.item.setAnchor((0, -1.1 * row))  # row k sits k label heights under the top
            lb.item.setPos(left + start * px, top)
            lb.item.show()


def draw_findings(session: Session, plots: list[pg.PlotItem], runs: list[int], theme: ChartTheme) -> MarkLabels:
    """Notes (grey) and what the throughput says, in the run's colour: drops, latency rises
    (hatched) and recurring dips (each dip a band, one label for the group); a band on every
    panel, a label on the top one that stays in view; where a verdict says when the cause was
    there, a strip along every panel's foot. Returns the top panel's labels."""
    s, t = session, theme
    labels = MarkLabels(plots[0], t.veil)
    rows: dict[int, int] = {}  # a run's row of cause strips, in the order the runs come
    for r in runs:
        color = QColor(s.color(r))

        def span(start: float, end: float, run: int = r) -> tuple[float, float]:
            x0, x1 = s.x_of(run, np.array([start, end]))
            return float(x0), float(x1)

        for note in s.notes(r):
            add_band(plots, *span(note.start, note.end), QBrush(t.note_fill), r)
            if note.label:
                labels.add(*span(note.start, note.end), note.label, QColor(t.text))
        found = s.findings(r)
        if found is None:
            continue
        for kind, items in (("drop", found.singles()), ("rise", found.rises)):
            for rd in items:
                label, state = s.drop_label(r, rd.drop)
                if state != "dismissed":
                    add_band(plots, *span(rd.drop.start, rd.drop.end), band_brush(color, kind), r)
                    labels.add(*span(rd.drop.start, rd.drop.end), decided(label, state), color)
                    if rd.cause is not None and worth_saying(rd.cause, rd.drop):
                        row = rows.setdefault(r, len(rows))
                        said = rd.cause.said(rd.drop)
                        add_cause_strip(plots, *span(rd.cause.start, rd.cause.end), color, r, row, said)
        for group in found.recurring:
            for m in group.members:
                add_band(plots, *span(m.drop.start, m.drop.end), band_brush(color, "dip"), r)
            labels.add(*span(group.pattern.start, group.pattern.end), group.label(), color)
    return labels
