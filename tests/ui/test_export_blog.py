"""The export dialog's blog preset (issue 12): the comparison's story in 3–4 panels at blog size,
the same panels `benchlens export --preset blog` chooses, or the panels as shown."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QImage

from benchlens.app.figure import blog_layout
from benchlens.app.render import SIZES
from benchlens.app.ui.main_window import MainWindow


def test_the_blog_preset_exports_the_story_in_at_most_four_panels(window: MainWindow, qtbot, tmp_path: Path) -> None:
    s = window.session
    s.add_series([s.available(s.comparison.runs[0])[0]])  # a sixth panel the blog leaves out
    dialog = window.export_figure()
    assert len(dialog.figure().panels) == len(s.comparison.panels) == 6
    dialog.size_choice.setCurrentIndex(dialog.size_choice.findData("square"))
    dialog.panels_choice.setCurrentIndex(dialog.panels_choice.findData("blog"))
    want = blog_layout(s.rundata, s.comparison.runs)
    assert 3 <= len(dialog.figure().panels) <= 4
    assert [p.title for p in dialog.figure().panels] == [p.title for p in want]
    assert dialog.chosen_size() == SIZES["blog"]
    dialog.path.setText(str(tmp_path / "post.png"))
    out = dialog.export()
    assert out is not None and QImage(str(out)).size().toTuple() == SIZES["blog"]
    dialog = window.export_figure()
    dialog.panels_choice.setCurrentIndex(dialog.panels_choice.findData("blog"))
    dialog.panels_choice.setCurrentIndex(dialog.panels_choice.findData("shown"))
    assert len(dialog.figure().panels) == 6  # back to the panels as shown
    dialog.reject()
