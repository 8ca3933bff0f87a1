"""The window, driven the way a user drives it (pytest-qt, offscreen)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent

from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.store import Library
from benchlens.app.ui import mime
from benchlens.app.ui.main_window import LAST_VIEW, MainWindow
from tests.conftest import FIXTURES, run_cli, stalled_folder
from tests.ui.conftest import FakeDrag, close_window, open_window

RUNS = FIXTURES / "runs"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "ui.sqlite"
    with Library(path) as lib:
        import_path(lib, RUNS / "c_basic")
        import_path(lib, RUNS / "locales_C")
    return path


@pytest.fixture
def window(qtbot, db: Path, tmp_path: Path) -> MainWindow:
    w = open_window(qtbot, db, tmp_path / "settings.ini")
    yield w
    close_window(w)


def drop_on(viewport, data: QMimeData, pos: QPoint) -> None:
    """Deliver a drop the way Qt does: to the target's viewport (a panel's, or the chart
    column's around them), at a position, through the event filter the chart installed on it
    (QApplication does not deliver a Drop outside a real drag)."""
    event = QDropEvent(
        QPointF(pos), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    chart = viewport.parent()
    while not hasattr(chart, "panel_of"):
        chart = chart.parent()
    chart.eventFilter(viewport, event)


def test_runs_dragged_from_the_table_join_the_comparison(window: MainWindow) -> None:
    table = window.runs.table
    table.selectAll()
    data = table.model().mimeData(table.selectionModel().selectedIndexes())
    assert data.hasFormat(mime.RUNS)
    drop_on(window.chart.column_scroll.viewport(), data, QPoint(300, 300))
    s = window.session
    assert sorted(s.comparison.runs) == sorted(r.id for r in s.runs())
    titles = [p.title for p in s.comparison.panels]
    assert titles[0] == "CPU (%)" and any("vda" in t for t in titles)
    assert len(window.chart.plots) == len(titles)
    assert len({window.chart.plots[0].getViewBox(), window.chart.plots[1].getViewBox().linkedView(0)}) == 1


def test_metric_dragged_onto_a_panel_is_added_to_it(window: MainWindow, qtbot) -> None:
    s = window.session
    s.add_runs([r.id for r in s.runs()])
    window.chart.resize(1000, 800)
    qtbot.wait(10)
    tree = window.metrics.tree
    item = tree.findItems("mpstat", Qt.MatchFlag.MatchExactly)[0]
    usr = [item.child(k) for k in range(item.childCount()) if item.child(k).text(0) == "%usr"][0]
    data = tree.mimeData([usr])
    refs = mime.read_series(data)
    assert SeriesRef("mpstat", "%usr", "all") in refs
    target = window.chart.widgets[1]
    before = list(s.comparison.panels[1].refs)
    drop_on(target.viewport(), data, target.viewport().rect().center())
    assert s.comparison.panels[1].refs[: len(before)] == before
    assert SeriesRef("mpstat", "%usr", "all") in s.comparison.panels[1].refs
    assert not s.comparison.layout_is_default


def test_double_click_adds_a_new_panel(window: MainWindow) -> None:
    s = window.session
    s.add_runs([s.runs()[0].id])
    n = len(s.comparison.panels)
    vm = window.metrics.tree.findItems("vmstat", Qt.MatchFlag.MatchExactly)[0]
    cs = [vm.child(k) for k in range(vm.childCount()) if vm.child(k).text(0) == "cs"][0]
    window.metrics.tree.itemDoubleClicked.emit(cs, 0)
    assert len(s.comparison.panels) == n + 1
    assert s.comparison.panels[-1].refs == [SeriesRef("vmstat", "cs", "")]


def test_alignment_and_offsets_move_the_curves(window: MainWindow) -> None:
    s = window.session
    ids = [r.id for r in s.runs()]
    s.add_runs(ids)
    first = window.chart.curves[0]
    assert first.x[0] >= 0 and first.x[0] < 5  # relative to run start: seconds
    s.set_offset(first.run, 30.0)
    moved = [c for c in window.chart.curves if c.run == first.run and c.ref == first.ref][0]
    assert moved.x[0] == pytest.approx(first.x[0] + 30.0)
    window.align.setCurrentIndex(2)  # absolute clock
    assert s.comparison.align == "absolute"
    assert window.chart.curves[0].x[0] > 1.7e9
    window.side.setChecked(True)
    window.align.setCurrentIndex(0)
    a, b = s.comparison.runs
    xa = [c.x for c in window.chart.curves if c.run == a][0]
    xb = [c.x for c in window.chart.curves if c.run == b][0]
    assert xb.min() > xa.max()  # side by side: the second run starts after the first ends


def test_crosshair_reads_every_run(window: MainWindow) -> None:
    s = window.session
    s.add_runs([r.id for r in s.runs()])
    window.chart.show_at(3.0)
    text = " ".join(lb.text() for lb in window.chart.readout.findChildren(type(window.chart.readout.header)))
    for r in s.runs():
        assert s.color(r.id) in text and r.name in text


def test_saved_view_round_trip_and_last_view_restored(window: MainWindow, db: Path, tmp_path: Path, qtbot) -> None:
    s = window.session
    s.add_runs([s.runs()[0].id])
    s.add_series([SeriesRef("vmstat", "cs")])
    s.set_offset(s.comparison.runs[0], 12.5)
    s.set_align("absolute")
    s.save_view("my view")
    saved = s.comparison.as_json()
    window.clear()
    assert s.open_view("my view")
    assert s.comparison.as_json() == saved
    window.close()  # saves the last view
    w2 = open_window(qtbot, db, tmp_path / "s2.ini", show=False)
    s2 = w2.session
    assert s2.open_view(LAST_VIEW)
    assert s2.comparison.runs == saved["runs"] and s2.comparison.offsets == {saved["runs"][0]: 12.5}
    close_window(w2)


def test_rename_and_delete_with_confirmation(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QInputDialog, QMessageBox

    s = window.session
    rid = s.runs()[0].id
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("renamed run", True))
    window.runs.rename(rid)
    assert s.run(rid).name == "renamed run"
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    window.runs.delete([rid])
    assert rid in {r.id for r in s.runs()}
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    window.runs.delete([rid])
    assert rid not in {r.id for r in s.runs()}


def test_filter_hides_other_runs(window: MainWindow) -> None:
    window.runs.filter.setText("locales")
    assert window.runs.proxy.rowCount() == 1


def test_import_dialog_imports_and_reports(window: MainWindow, qtbot) -> None:
    dialog = window.import_paths([RUNS / "notimes"])
    with qtbot.waitSignal(dialog.imported, timeout=20000):
        pass
    assert "notimes" in {r.name for r in window.session.runs()}
    assert "vmstat.log" in dialog.report.toPlainText()
    assert window.session.comparison.runs


def test_import_report_groups_and_counts_warnings_by_kind(window: MainWindow, qtbot, tmp_path: Path) -> None:
    """A file with many bad lines is one counted line per kind in the report, not a list cut at 20."""
    run = tmp_path / "garbled"
    run.mkdir()
    lines = (RUNS / "c_basic" / "vmstat.log").read_text().splitlines(keepends=True)
    garbled = lines[:4] + [f"garbage line {k} !!\n" for k in range(30)] + lines[4:]
    (run / "vmstat.log").write_text("".join(garbled))
    dialog = window.import_paths([run])
    with qtbot.waitSignal(dialog.imported, timeout=20000) as blocker:
        pass
    (report,) = blocker.args[0]
    kinds = [w.kind for w in report.sources[0].warnings]
    assert kinds.count("unreadable") == 30
    text = dialog.report.toPlainText()
    assert "30 × unreadable" in text and "27 more" in text
    assert text.count("garbage line") <= 3  # quoted once each, three of them


def test_import_worker_reports_an_internal_error_instead_of_hanging(
    window: MainWindow, qtbot, monkeypatch: pytest.MonkeyPatch
) -> None:
    import benchlens.app.ui.import_dialog as dialog_module

    def broken(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(dialog_module, "import_path", broken)
    dialog = window.import_paths([RUNS / "notimes"])
    with qtbot.waitSignal(dialog.failed, timeout=20000) as blocker:
        pass
    assert "internal error (ZeroDivisionError: a bug)" in blocker.args[0]


def test_import_cancel_leaves_library_unchanged(window: MainWindow, qtbot, tmp_path: Path) -> None:
    big = tmp_path / "big"
    big.mkdir()
    src = (RUNS / "c_basic" / "iostat.log").read_text()
    (big / "iostat.log").write_text(src * 400)
    before = [r.id for r in window.session.runs()]
    dialog = window.import_paths([big])
    dialog.worker.cancel.set()  # as if Cancel was pressed before the first chunk was read
    with qtbot.waitSignal(dialog.failed, timeout=20000) as blocker:
        pass
    assert "cancelled" in blocker.args[0]
    window.session.reload_runs()
    assert [r.id for r in window.session.runs()] == before


def test_folder_dropped_from_file_manager_is_imported(window: MainWindow, qtbot) -> None:
    data = QMimeData()
    from PySide6.QtCore import QUrl

    data.setUrls([QUrl.fromLocalFile(str(RUNS / "notimes"))])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    window.dropEvent(event)
    dialog = window.dialogs[-1]
    with qtbot.waitSignal(dialog.imported, timeout=20000):
        pass
    assert str(RUNS / "notimes") in window.recent_folders()


def test_app_starts_and_takes_a_screenshot(tmp_path: Path, db: Path) -> None:
    out = tmp_path / "shot.png"
    p = run_cli(
        tmp_path, "screenshot", str(out), "--db", str(db), "--run", "c_basic", env={"QT_QPA_PLATFORM": "offscreen"}
    )
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Traceback" not in p.stderr


def test_a_screenshot_leaves_the_users_window_settings_and_last_view_alone(tmp_path: Path, db: Path) -> None:
    """A 1920x1080 screenshot saved its size, docks and comparison as the user's: the next window
    opened at that size, on the screenshot's runs."""
    from benchlens.app.store import Library

    out = tmp_path / "shot.png"
    env = {"QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    with Library(db) as lib:
        views = lib.view_names()
    p = run_cli(tmp_path, "screenshot", str(out), "--db", str(db), "--run", "c_basic", "--size", "1920x1080", env=env)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (tmp_path / "config" / "benchlens" / "benchlens.ini").exists()
    with Library(db) as lib:
        assert lib.view_names() == views


def test_ctrl_drag_slides_the_chosen_run_in_time(window: MainWindow) -> None:
    s = window.session
    ids = [r.id for r in s.runs()]
    s.add_runs(ids)
    window.offset_run.setCurrentIndex(1)
    moved = window.offset_run.currentData()
    still = next(r for r in ids if r != moved)
    before = {c.run: c.x[0] for c in window.chart.curves}
    vb = window.chart.plots[0].vb
    for k, finish in ((0, False), (1, True)):
        ev = FakeDrag(vb, 2.0 + 5 * k, 7.0 + 5 * k, finish)
        vb.mouseDragEvent(ev)
        assert ev.accepted
    assert s.comparison.offsets[moved] == pytest.approx(10.0, abs=0.05)
    assert still not in s.comparison.offsets
    after = {c.run: c.x[0] for c in window.chart.curves}
    assert after[moved] == pytest.approx(before[moved] + 10.0, abs=0.05)
    assert after[still] == before[still]
    assert window.offset.value() == pytest.approx(10.0, abs=0.05)


def test_detected_drops_are_shaded_on_every_panel_and_labelled(qtbot, tmp_path: Path) -> None:
    import pyqtgraph as pg

    folder = stalled_folder(tmp_path)
    db = tmp_path / "d.sqlite"
    with Library(db) as lib:
        run_id = import_path(lib, folder).id
    w = open_window(qtbot, db, tmp_path / "s.ini", show=False)
    session = w.session
    session.add_runs([run_id])
    (rd,) = session.drops(run_id)
    assert rd.drop.label() == "−70% · 5 s"
    for plot in w.chart.plots:
        bands = [i for i in plot.items if isinstance(i, pg.LinearRegionItem)]
        assert len(bands) == 1
        lo, hi = bands[0].getRegion()
        assert hi - lo == pytest.approx(5.0)
    assert [label.textItem.toPlainText() for label in w.chart.drop_labels] == ["−70% · 5 s"]
    assert session.comparison.panels[0].title == "Throughput (tps)"
    close_window(w)


def test_drops_list_zooms_to_a_drop_and_adds_what_changed(qtbot, tmp_path: Path) -> None:
    db = tmp_path / "d.sqlite"
    with Library(db) as lib:
        run_id = import_path(lib, stalled_folder(tmp_path)).id
    w = open_window(qtbot, db, tmp_path / "s.ini", show=False)
    session = w.session
    session.add_runs([run_id])
    qtbot.wait(20)
    tree = w.drops.tree
    run_item = tree.topLevelItem(0)
    drop_item = run_item.child(0)
    assert drop_item.text(0) == "−70% · 5 s"
    w.drops.on_click(drop_item, 0)
    (x0, x1), _ = w.chart.plots[0].vb.viewRange()
    (rd,) = session.drops(run_id)
    d0, d1 = session.x_of(run_id, np.array([rd.drop.start, rd.drop.end]))
    assert x0 < d0 < d1 < x1 and x1 - x0 <= 6 * (d1 - d0) + 20
    assert drop_item.childCount() == len(rd.explain) > 0
    panels = len(session.comparison.panels)
    w.drops.on_double(drop_item.child(0), 0)
    qtbot.wait(20)
    assert len(session.comparison.panels) == panels + 1
    assert session.comparison.panels[-1].refs == [rd.explain[0].ref]
    close_window(w)


def test_runs_imported_elsewhere_show_up_when_the_window_is_active_again(qtbot, tmp_path: Path, monkeypatch) -> None:
    """Another importer (another window, another machine on a server library) adds a run: the
    window lists it when it is activated again, without F5; nothing is rebuilt when nothing changed."""
    from PySide6.QtCore import QEvent

    db = tmp_path / "shared.sqlite"
    with Library(db) as lib:
        import_path(lib, RUNS / "c_basic")
    w = open_window(qtbot, db, tmp_path / "s.ini")
    rebuilt = []
    w.session.runsChanged.connect(lambda: rebuilt.append(1))
    monkeypatch.setattr(type(w), "isActiveWindow", lambda self: True)
    w.changeEvent(QEvent(QEvent.Type.ActivationChange))
    assert rebuilt == [] and len(w.session.runs()) == 1  # nothing new: nothing redone
    with Library(db) as other:  # a second writer
        import_path(other, stalled_folder(tmp_path))
    w.changeEvent(QEvent(QEvent.Type.ActivationChange))
    assert rebuilt == [1] and len(w.session.runs()) == 2
    close_window(w)
