"""The legends of the comparison: the runs above the panels (click one to choose it, Delete or a
right click takes it out of the comparison) and, beside each panel's title, the line style of each
metric (click an entry to hide or show that series). Both are rich text with links, so an entry
is clicked where it is drawn and nothing covers the plot area."""

from __future__ import annotations

import html
from functools import partial

import pyqtgraph as pg
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QPalette
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from benchlens.app.analysis.layout import Panel, shortened
from benchlens.app.ui.panel_column import AXIS_WIDTH
from benchlens.app.ui.session import Session
from benchlens.app.ui.theme import LIGHT, ChartTheme

# the line styles of app/ui/curves.STYLES as text, for the legend beside a panel's title
STYLE_SAMPLES = ("\u2500\u2500\u2500", "\u254c\u254c\u254c", "\u2508\u2508\u2508", "\u2500\u00b7\u2500")
LEGEND_NAME_CHARS = 28  # a longer metric name is shortened from the front: its end tells it apart
SHORTER = (20, 14, 10, 6)  # ... and shorter still while the title row does not fit its panel


def metric_legend(panel: Panel, theme: ChartTheme = LIGHT, n: int = LEGEND_NAME_CHARS) -> str:
    """The line style of each metric, as rich text to follow a panel's title ('' for one metric);
    entry j links to `series:j`, a hidden series is greyed and struck through; names of at most
    n characters."""
    labels = panel.legend()
    if len(labels) < 2:
        return ""
    items = []
    for j, (ref, short) in enumerate(zip(panel.refs, short_names(labels, n), strict=True)):
        off = ref in panel.hidden
        style = f"color:{theme.muted if off else theme.text}; text-decoration:{'line-through' if off else 'none'}"
        sample = STYLE_SAMPLES[j % len(STYLE_SAMPLES)]
        items.append(f'<a href="series:{j}" style="{style}">{sample}&nbsp;{html.escape(short)}</a>')
    return "&nbsp;&nbsp;&nbsp;" + "&nbsp;&nbsp; ".join(items)


def short_names(labels: list[str], n: int) -> list[str]:
    """The labels in at most n characters, shortened from the front; where that makes two alike
    (wait/io/table/sql/handler and wait/lock/table/sql/handler both end …/table/sql/handler), cut
    in the middle instead, keeping both ends."""
    short = [shortened(t, n) for t in labels]
    if len(set(short)) == len(set(labels)):
        return short
    head = max(1, n // 2 - 1)
    return [t if len(t) <= n else t[:head] + "\u2026" + t[-(n - head - 1) :] for t in labels]


def fit_title(plot: pg.PlotItem, heading: str, panel: Panel, theme: ChartTheme) -> None:
    """The panel's title and its metrics' legend in one row, the names shortened until the row
    fits the panel (issue 24: the Top waits legend ran past the panel's edge at 1366 px); fitted
    again whenever the panel is resized."""

    views = plot.scene().views() if plot.scene() is not None else []
    shown = [""]  # the title's text now

    def show(text: str) -> bool:
        if text == shown[0]:
            return False
        shown[0] = text
        plot.setTitle(text, size="10pt", color=theme.text)
        return True

    def fit(*_: object) -> None:
        # the panel's width (a long title widens the plot item itself) right of the value axis
        room = (views[0].width() if views else plot.width()) - AXIS_WIDTH - 4
        changed = False
        for n in (LEGEND_NAME_CHARS, *SHORTER):
            changed = show(heading + metric_legend(panel, theme, n)) or changed
            if plot.titleLabel.item.boundingRect().width() <= room:
                break
        if changed and views:  # a shorter title: the plot item may shrink to the panel again
            plot.setGeometry(views[0].range)

    show(heading + metric_legend(panel, theme))
    if views:  # fitted when the panel is laid out and whenever it is resized
        views[0].sigDeviceRangeChanged.connect(fit)
    else:
        fit()


def series_clicked(session: Session, index: int, link: str) -> None:
    """A click on entry `series:j` of panel `index`'s legend: hide or show that series."""
    kind, _, j = link.partition(":")
    panels = session.comparison.panels
    if kind == "series" and j.isdigit() and 0 <= index < len(panels) and int(j) < len(panels[index].refs):
        session.toggle_series(index, panels[index].refs[int(j)])


class RunLegend(QLabel):
    """The runs of the comparison in their colours. A click chooses a run (underlined); Delete
    then takes it out of the comparison, as does the menu of a right click."""

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.chosen: int | None = None
        self.menu: QMenu | None = None  # the menu last opened (tests read it)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.linkActivated.connect(self.choose)
        self.setToolTip("Click a run to choose it; Delete or a right click removes it from the comparison")

    def show_runs(self, runs: list[int]) -> None:
        s = self.session
        if self.chosen not in runs:
            self.chosen = None
        items = []
        text = self.palette().color(QPalette.ColorRole.WindowText).name()
        for r in runs:
            name = html.escape(s.run(r).name)
            deco = "underline" if r == self.chosen else "none"
            items.append(
                f'<span style="color:{s.color(r)}; font-size:14px">■</span> '
                f'<a href="run:{r}" style="color:{text}; text-decoration:{deco}"><b>{name}</b></a>'
            )
        self.setText(
            "&nbsp;&nbsp;".join(items)
            or "<i>Drag runs from the library here to compare them; drag metrics onto a panel.</i>"
        )

    def choose(self, link: str) -> None:
        kind, _, r = link.partition(":")
        if kind == "run" and r.isdigit():
            self.chosen = None if self.chosen == int(r) else int(r)
            self.show_runs(self.session.comparison.runs)

    def remove_chosen(self) -> bool:
        if self.chosen is None or self.chosen not in self.session.comparison.runs:
            return False
        run, self.chosen = self.chosen, None
        self.session.remove_run(run)
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace) and self.remove_chosen():
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        event.accept()
        self.open_menu(event.globalPos())

    def open_menu(self, at: QPoint) -> QMenu:
        self.menu = remove_runs_menu(QMenu(self), self.session)
        self.menu.popup(at)
        return self.menu


def remove_runs_menu(menu: QMenu, session: Session) -> QMenu:
    """One 'Remove NAME from the comparison' action per run shown (the legend's and the panel menu's)."""
    for r in session.comparison.runs:
        if r in {x.id for x in session.runs()}:
            menu.addAction(f"Remove {session.run(r).name} from the comparison", partial(session.remove_run, r))
    return menu
