"""Shaping what the comparison shows (issue 12), driven as a user drives it: a click on a series in
a panel's legend hides it and a second shows it again, a series split out into a panel of its own
and merged back, a run taken out of the comparison (Delete after choosing it, or a right click) —
each undoable, saved with the view, and drawn by every export the same way."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QTextCursor, QTextDocument
from PySide6.QtWidgets import QApplication, QMenu

from benchlens.app.figure import figure_of
from benchlens.app.render import export
from benchlens.app.ui.main_window import MainWindow
from tests.ui.conftest import right_click

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")


@pytest.fixture(autouse=True)
def close_menus(qtbot):
    """Menus popped up offscreen are closed here, so their late warnings stay in this module."""
    yield
    for menu in QApplication.topLevelWidgets():
        if isinstance(menu, QMenu) and menu.isVisible():
            menu.close()
    qtbot.wait(20)


def multi_panel(window: MainWindow) -> int:
    """The first panel with several series (CPU: us, sy, wa)."""
    return next(i for i, p in enumerate(window.session.comparison.panels) if len(p.refs) >= 3)


def link_point(doc: QTextDocument, href: str) -> QPointF:
    """Where in a rich text document the link `href` is drawn (the middle of its first character)."""
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref() == href:
                cursor = QTextCursor(doc)
                cursor.setPosition(fragment.position() + 1)
                line = block.layout().lineForTextPosition(fragment.position() + 1 - block.position())
                x = line.cursorToX(fragment.position() + 1 - block.position())[0]
                top = doc.documentLayout().blockBoundingRect(block).top()
                return QPointF(x, top + line.y() + line.height() / 2)
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href} in the legend")


def click_legend(window: MainWindow, qtbot, index: int, j: int) -> None:
    """A real mouse click on entry j of panel `index`'s legend, where it is drawn."""
    widget = window.chart.widgets[index]
    item = window.chart.plots[index].titleLabel.item
    at = item.mapToScene(link_point(item.document(), f"series:{j}"))
    qtbot.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=widget.mapFromScene(at))


def drawn(window: MainWindow, index: int) -> set[str]:
    """The series drawn in panel `index`: their metric names."""
    chart = window.chart
    return {c.ref.metric for c in chart.curves if c.panel == index}


def test_a_legend_click_hides_a_series_and_a_second_shows_it(window: MainWindow, qtbot, tmp_path) -> None:
    s, i = window.session, multi_panel(window)
    refs = list(s.comparison.panels[i].refs)
    assert drawn(window, i) == {r.metric for r in refs}
    click_legend(window, qtbot, i, 1)
    qtbot.waitUntil(lambda: s.comparison.panels[i].hidden == [refs[1]], timeout=2000)
    assert drawn(window, i) == {r.metric for r in refs} - {refs[1].metric}
    legend = window.chart.plots[i].titleLabel.item.toHtml()
    assert "line-through" in legend  # the hidden entry stays in the legend, struck through
    fig = figure_of(s.rundata, s.comparison)  # every export draws what the window shows
    assert {ln.ref for ln in fig.lines[i]} == set(refs) - {refs[1]}
    labels = s.comparison.panels[i].legend()
    svg = export(fig, tmp_path / "hidden.svg", (900, 700)).read_text()
    assert f">{labels[0]}<" in svg and f">{labels[1]}<" not in svg  # the export's legend leaves it out too
    s.save_view("no sy")
    click_legend(window, qtbot, i, 1)
    qtbot.waitUntil(lambda: not s.comparison.panels[i].hidden, timeout=2000)
    assert drawn(window, i) == {r.metric for r in refs}
    assert s.open_view("no sy") and s.comparison.panels[i].hidden == [refs[1]]


def test_a_series_split_out_and_merged_back(window: MainWindow, qtbot) -> None:
    s, i = window.session, multi_panel(window)
    before = [p.as_json() for p in s.comparison.panels]
    refs = list(s.comparison.panels[i].refs)
    menu = right_click(window, i)
    split = {a.text(): a for a in menu["Split series out"].menu().actions()}
    split[s.comparison.panels[i].legend()[2]].trigger()
    panels = s.comparison.panels
    assert panels[i].refs == refs[:2] and panels[i + 1].refs == [refs[2]]
    assert panels[i + 1].title == refs[2].label() and len(window.chart.plots) == len(before) + 1
    assert drawn(window, i + 1) == {refs[2].metric}
    right_click(window, i + 1)["Merge into panel above"].trigger()
    assert [p.as_json() for p in s.comparison.panels] == before
    assert not right_click(window, 0)["Merge into panel above"].isEnabled()
    s.undo_stack.undo()
    s.undo_stack.undo()
    assert [p.as_json() for p in s.comparison.panels] == before
    one = next(k for k, p in enumerate(s.comparison.panels) if len(p.refs) == 1)
    assert not right_click(window, one)["Split series out"].isEnabled()  # nothing to split from one series


def test_the_series_shown_menu_hides_as_the_legend_does(window: MainWindow) -> None:
    s, i = window.session, multi_panel(window)
    shown = {a.text(): a for a in right_click(window, i)["Series shown"].menu().actions()}
    label = s.comparison.panels[i].legend()[0]
    assert all(a.isChecked() for a in shown.values())
    shown[label].trigger()
    assert s.comparison.panels[i].hidden == [s.comparison.panels[i].refs[0]]
    shown = {a.text(): a for a in right_click(window, i)["Series shown"].menu().actions()}
    assert not shown[label].isChecked()


def test_a_run_is_removed_from_the_comparison_by_delete_or_menu(window: MainWindow, qtbot, tmp_path) -> None:
    s, chart = window.session, window.chart
    first, second = s.comparison.runs
    legend = chart.legend
    legend.linkActivated.emit(f"run:{second}")  # a click on its name chooses it
    assert legend.chosen == second and "underline" in legend.text()
    legend.setFocus()
    qtbot.keyClick(legend, Qt.Key.Key_Delete)
    assert s.comparison.runs == [first]
    assert {c.run for c in chart.curves} == {first}  # the charts follow
    assert [r.id for r in figure_of(s.rundata, s.comparison).runs] == [first]  # and the export
    s.undo_stack.undo()
    assert s.comparison.runs == [first, second]
    menu = legend.open_menu(legend.mapToGlobal(legend.rect().center()))
    actions = {a.text(): a for a in menu.actions()}
    actions[f"Remove {s.run(first).name} from the comparison"].trigger()
    assert s.comparison.runs == [second]
    s.save_view("one run")
    s.undo_stack.undo()
    assert s.open_view("one run") and s.comparison.runs == [second]
    panel_menu = right_click(window, 0)["Remove run"].menu()
    assert [a.text() for a in panel_menu.actions()] == [f"Remove {s.run(second).name} from the comparison"]
