"""The panel menu (right click on a panel), benchlens' own in place of pyqtgraph's: rename, move
up/down, log scale, y from zero, show/hide or split out a series, merge into the panel above, add
one of the panels the default layout left out, remove the panel or a run from the comparison.
Every choice goes through the Session (undoable, saved with the view, used by every export)."""

from __future__ import annotations

from functools import partial

import pyqtgraph as pg
from PySide6.QtWidgets import QInputDialog, QMenu, QWidget

from benchlens.app.analysis.heatmap import heatmap_ref
from benchlens.app.analysis.layout import Panel
from benchlens.app.ui.legends import remove_runs_menu
from benchlens.app.ui.session import Session


def panel_menu(session: Session, index: int, parent: QWidget) -> QMenu:
    panels = session.comparison.panels
    panel = panels[index]
    menu = QMenu(parent)
    menu.setObjectName("panel-menu")
    menu.addAction("Rename…", partial(rename, session, index, parent))
    up = menu.addAction("Move up", partial(session.move_panel, index, -1))
    up.setEnabled(index > 0)
    down = menu.addAction("Move down", partial(session.move_panel, index, 1))
    down.setEnabled(index < len(panels) - 1)
    menu.addSeparator()
    log = menu.addAction("Log scale")
    log.setCheckable(True)
    log.setChecked(panel.log_y)
    log.triggered.connect(lambda on: session.set_panel_scale(index, log_y=on))
    zero = menu.addAction("Y from zero")
    zero.setCheckable(True)
    zero.setChecked(panel.y_zero)
    zero.triggered.connect(lambda on: session.set_panel_scale(index, y_zero=on))
    zero.setEnabled(not panel.log_y)
    if heatmap_ref(panel.refs) is not None:  # every entity of a metric: its rows by load or by number
        by_load = menu.addAction("Rows by load")
        by_load.setCheckable(True)
        by_load.setChecked(panel.order == "load")
        by_load.triggered.connect(lambda on: session.set_panel_rows(index, "load" if on else "number"))
    menu.addSeparator()
    _series_actions(menu, session, index, panel)
    merge = menu.addAction("Merge into panel above", partial(session.merge_up, index))
    merge.setEnabled(index > 0)
    add_more_panels(menu.addMenu("Add panel"), session, index + 1)
    menu.addSeparator()
    menu.addAction("Remove panel", partial(session.remove_panel, index))
    remove_runs_menu(menu.addMenu("Remove run"), session)
    return menu


def _series_actions(menu: QMenu, session: Session, index: int, panel: Panel) -> None:
    """Show/hide each series (as a legend click does) and split one out into its own panel."""
    shown = menu.addMenu("Series shown")
    split = menu.addMenu("Split series out")
    for ref, label in zip(panel.refs, panel.legend(), strict=True):
        action = shown.addAction(label, partial(session.toggle_series, index, ref))
        action.setCheckable(True)
        action.setChecked(ref not in panel.hidden)
        split.addAction(label, partial(session.split_series, index, ref))
    split.setEnabled(len(panel.refs) > 1)


def add_more_panels(menu: QMenu, session: Session, at: int | None = None) -> None:
    """The default candidates not shown, one action each (the View menu's "More panels" too)."""
    menu.clear()
    more = session.more_panels()
    for p in more:
        action = menu.addAction(p.title, partial(session.add_panel, p, at))
        action.setToolTip(", ".join(r.spec() for r in p.refs))
    if not more:
        menu.addAction("(every suggested panel is shown)").setEnabled(False)


def rename(session: Session, index: int, parent: QWidget) -> None:
    old = session.comparison.panels[index].title
    title, ok = QInputDialog.getText(parent, "Rename panel", "Title:", text=old)
    if ok and title.strip():
        session.rename_panel(index, title.strip())


def apply_scale(plot: pg.PlotItem, panel: Panel, first_x: float | None) -> None:
    """Log values, or a value axis that reaches 0, as the export draws them (app/render.py)."""
    plot.setLogMode(x=False, y=panel.log_y)  # the value axis (app/ui/axes.py) then ticks decades
    if panel.y_zero and not panel.log_y and first_x is not None:
        # an invisible point at y = 0: the auto range then always includes zero
        anchor = pg.ScatterPlotItem([first_x], [0.0], size=0, pen=None, brush=None)
        anchor.setProperty("anchor", True)
        plot.addItem(anchor)
