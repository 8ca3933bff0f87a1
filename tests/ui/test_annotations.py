"""Manual notes and decisions on detected drops: saved with the run, undoable, shown in every
comparison that includes the run (window and export), and still there after reopening the app."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest

from benchlens.app.figure import build
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library, LibraryError
from benchlens.app.ui.main_window import MainWindow
from tests.conftest import stalled_folder
from tests.ui.conftest import FakeDrag, close_window, open_window


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "a.sqlite"
    with Library(path) as lib:
        import_path(lib, stalled_folder(tmp_path))
    return path


def compare_all(qtbot, db: Path, tmp_path: Path) -> MainWindow:
    """A window (not shown) comparing every run of the library."""
    w = open_window(qtbot, db, tmp_path / "s.ini", show=False)
    w.session.add_runs([r.id for r in w.session.runs()])
    qtbot.wait(20)  # the drops list refreshes once the event loop runs
    return w


def band_texts(w: MainWindow) -> list[str]:
    return [label.textItem.toPlainText() for label in w.chart.drop_labels]


def test_store_api(db: Path) -> None:
    with Library(db) as lib:
        run = lib.runs()[0].id
        a = lib.add_annotation(run, 10.0, 20.0, "checkpoint storm")
        lib.update_annotation(a, label="flush storm")
        assert [x.label for x in lib.annotations(run)] == ["flush storm"]
        with pytest.raises(LibraryError):
            lib.update_annotation(a, run_id=2)  # only start, end, label, state
        with pytest.raises(LibraryError):
            lib.add_annotation(run, 20.0, 10.0, "backwards")
        lib.delete_annotation(a)
        assert lib.annotations(run) == []


@pytest.mark.qt_log_ignore("This plugin does not support (raise|grabbing the keyboard)")  # the drag's menu, offscreen
def test_a_note_marked_with_shift_drag_survives_reopening(qtbot, db: Path, tmp_path: Path, monkeypatch) -> None:
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("dd burst", True))
    w = compare_all(qtbot, db, tmp_path)
    vb = w.chart.plots[0].vb

    class ShiftDrag(FakeDrag):
        def modifiers(self):
            from PySide6.QtCore import Qt

            return Qt.KeyboardModifier.ShiftModifier

        def buttonDownPos(self):
            return self._last

    vb.mouseDragEvent(ShiftDrag(vb, 2.0, 4.0, False))
    vb.mouseDragEvent(ShiftDrag(vb, 2.0, 5.0, True))
    (add,) = [a for a in w.last_menu.actions() if a.text() == "Add a note…"]  # the menu the drag opens
    add.trigger()
    w.last_menu.close()
    assert "dd burst" in band_texts(w)
    qtbot.wait(20)
    run = w.session.comparison.runs[0]
    (note,) = w.session.notes(run)
    assert note.end - note.start == pytest.approx(3.0, abs=0.05)
    assert any("dd burst" in w.drops.tree.topLevelItem(0).child(k).text(0) for k in range(3))
    close_window(w)
    w2 = compare_all(qtbot, db, tmp_path)
    assert "dd burst" in band_texts(w2)
    w2.session.edit_note(note.id, "dd burst (4 GB)")
    assert "dd burst (4 GB)" in band_texts(w2)
    w2.session.undo_stack.undo()
    assert "dd burst" in band_texts(w2)
    w2.session.delete_note(note.id)
    assert "dd burst" not in band_texts(w2)
    w2.session.undo_stack.undo()
    assert "dd burst" in band_texts(w2)
    close_window(w2)


def test_dismissed_and_renamed_drops_are_remembered(qtbot, db: Path, tmp_path: Path) -> None:
    w = compare_all(qtbot, db, tmp_path)
    run = w.session.comparison.runs[0]
    (rd,) = w.session.drops(run)
    assert band_texts(w) == ["−70% · 5 s"]
    w.session.decide_drop(run, rd.drop, "accepted", "buffer pool flush")
    assert band_texts(w) == ["✓ buffer pool flush"]
    w.session.decide_drop(run, rd.drop, "dismissed")  # keeps the name
    assert band_texts(w) == []
    bands = [i for i in w.chart.plots[0].items if isinstance(i, pg.LinearRegionItem)]
    assert bands == []
    close_window(w)
    w2 = compare_all(qtbot, db, tmp_path)
    assert band_texts(w2) == []
    assert "(dismissed)" in w2.drops.tree.topLevelItem(0).child(0).text(0)
    with Library(db) as lib:
        assert build(LibraryRunData(lib), [run], w2.session.comparison.panels).marks == []  # the export agrees
    w2.session.decide_drop(run, rd.drop, "")  # restore
    assert band_texts(w2) == ["buffer pool flush"]
    w2.session.undo_stack.undo()
    assert band_texts(w2) == []
    close_window(w2)
