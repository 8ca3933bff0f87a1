"""File ▸ Export… and Edit ▸ Copy chart image / Copy data as CSV, driven through the window on the
bundled demo runs (pytest-qt, offscreen): the files are what the window shows (runs, panels,
offsets, the zoomed time window, drops as decided, notes) and the PNG is the one
`benchlens export` writes for the same view."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QKeySequence

from benchlens.app import render
from benchlens.app.analysis.run_drops import run_drops
from benchlens.app.ingest import Options, import_path
from benchlens.app.resources import demo_folders
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from benchlens.app.ui.export_dialog import ExportDialog, window_figure
from benchlens.app.ui.main_window import MainWindow
from tests.conftest import run_cli
from tests.ui.conftest import close_window, open_window

WINDOW = (20.0, 60.0)  # the zoomed time window, seconds from run start
SHIFT = 3.0  # small-buffer-pool is shifted right by this much


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo runs with the user's decisions: the disk-stall drop accepted and renamed, a note on
    small-buffer-pool."""
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    with Library(path) as lib:
        ids = {f.name: import_path(lib, f, Options(name=f.name)).id for f in demo_folders()}
        assert set(ids) == {"baseline", "disk-stall", "small-buffer-pool"}
        (stall,) = run_drops(LibraryRunData(lib), ids["disk-stall"])
        lib.add_annotation(ids["disk-stall"], stall.drop.start, stall.drop.end, "dd writers", "drop", "accepted")
        # against its steady state the baseline run dips twice (foreign load): -35% for 3 s, -31% for
        # 5 s; neither is significant in 90 reports, nor confirmed by another series (iowait's own
        # test): no drop (a dismissed one is left out of the export: tests/ui/test_annotations.py)
        assert run_drops(LibraryRunData(lib), ids["baseline"]) == []
        start = lib.run(ids["small-buffer-pool"]).start
        lib.add_annotation(ids["small-buffer-pool"], start + 25, start + 30, "buffer pool too small")
    return path


@pytest.fixture
def window(qtbot, db: Path, tmp_path: Path) -> MainWindow:
    """The three runs compared, one shifted, zoomed on WINDOW with the mouse (which moves the view
    without telling the session: the export must read the view)."""
    w = open_window(qtbot, db, tmp_path / "settings.ini")
    session = w.session
    session.add_runs([r.id for r in session.runs()])
    session.set_offset(run_id(w, "small-buffer-pool"), SHIFT)
    w.chart.plots[0].vb.setXRange(*WINDOW, padding=0)
    assert session.comparison.x_range is None
    yield w
    close_window(w)


def run_id(w: MainWindow, name: str) -> int:
    return next(r.id for r in w.session.runs() if r.name == name)


def action(w: MainWindow, text: str):
    return next(a for menu in w.menuBar().actions() for a in menu.menu().actions() if a.text() == text)


def open_dialog(w: MainWindow, qtbot) -> ExportDialog:
    """File ▸ Export… (Ctrl+E), as the menu does it."""
    export = action(w, "Export…")
    assert export.shortcut() == QKeySequence("Ctrl+E")
    export.trigger()
    (dialog,) = [d for d in w.findChildren(ExportDialog) if d.isVisible()]
    qtbot.waitExposed(dialog)
    return dialog


def choose(dialog: ExportDialog, fmt: str, path: Path, size: str = "blog", scale: str = "1", theme: str = "screen"):
    choices = ((dialog.format, fmt), (dialog.size_choice, size), (dialog.scale, scale), (dialog.theme, theme))
    for combo, value in choices:
        index = combo.findData(value)
        assert index >= 0, value
        combo.setCurrentIndex(index)
    dialog.path.setText(str(path))


def export(dialog: ExportDialog, qtbot, out: Path) -> Path:
    with qtbot.waitSignal(dialog.exported) as signal:
        qtbot.mouseClick(dialog.export_button, Qt.MouseButton.LeftButton)
    assert signal.args == [str(out)] and out.is_file()
    assert not dialog.isVisible()
    return out


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_RGBA8888)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4).copy()


def differing(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels that differ visibly (more than 8 levels in a channel)."""
    assert a.shape == b.shape
    return float((np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 8).mean())


def svg_texts(path: Path) -> list[tuple[float, str]]:
    """(y, text) of every <text> element."""
    elements = ET.parse(path).iter("{http://www.w3.org/2000/svg}text")
    return [(float(t.get("y", "nan")), "".join(t.itertext()).strip()) for t in elements]


def test_png_svg_pdf_csv_through_the_dialog_are_the_zoomed_view(window: MainWindow, qtbot, tmp_path: Path) -> None:
    names = ["baseline", "disk-stall", "small-buffer-pool"]
    dialog = open_dialog(window, qtbot)
    assert dialog.title.text() == " vs ".join(names)  # prefilled from the run names
    assert dialog.fig.x_range == pytest.approx(WINDOW)
    choose(dialog, "PNG", tmp_path / "post", scale="2")
    assert dialog.pixels.text() == "2400 × 1350 pixels"
    png = export(dialog, qtbot, tmp_path / "post.png")  # the suffix follows the format
    assert QImage(str(png)).size().toTuple() == (2400, 1350)

    dialog = open_dialog(window, qtbot)
    choose(dialog, "SVG", tmp_path / "post.svg")
    assert not dialog.scale.isEnabled()  # a vector file has no pixel ratio
    dialog.title.setText("Disk stall vs baseline")
    placed = svg_texts(export(dialog, qtbot, tmp_path / "post.svg"))
    texts = [t for _, t in placed]
    for expected in (
        "Disk stall vs baseline",
        *names,
        "Throughput (tps)",  # units with the panel titles, once
        "Disk vda: %util",  # the busiest disk, in one panel (its unit is in the title already)
        "dd writers",  # the drop as renamed
        "buffer pool too small",  # the note
        "seconds, relative to run start",
    ):
        assert expected in texts, expected
    assert "−35% · 3 s" not in texts  # not significant, left out, as in the window
    assert "−52% · 16 s" not in texts  # renamed
    axis = next(y for y, t in placed if t == "seconds, relative to run start")
    numbers = [(y, float(t)) for y, t in placed if re.fullmatch(r"\d+", t)]
    row = max(y for y, _ in numbers if y < axis)  # the time ticks: the last row of numbers above the axis title
    ticks = [v for y, v in numbers if y == row]
    assert min(ticks) == WINDOW[0] and max(ticks) == WINDOW[1]  # the time axis spans the window

    dialog = open_dialog(window, qtbot)
    choose(dialog, "PDF", tmp_path / "post.pdf")
    pdf = export(dialog, qtbot, tmp_path / "post.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    box = re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf)
    assert box and float(box[1]) == pytest.approx(900, abs=1) and float(box[2]) == pytest.approx(506, abs=1)

    dialog = open_dialog(window, qtbot)
    choose(dialog, "CSV", tmp_path / "data.csv")
    assert not dialog.theme.isEnabled() and not dialog.size_choice.isEnabled()
    rows = list(csv.reader(export(dialog, qtbot, tmp_path / "data.csv").open(newline="")))
    header, body = rows[0], rows[1:]
    s = window.session
    expected = [
        f"{s.run(r).name} {ref.spec()} ({s.unit(r, ref)})"
        for panel in s.comparison.panels
        for ref in panel.refs
        for r in s.comparison.runs
        if s.data(r, ref) is not None
    ]
    assert header == ["seconds", *expected] and len(expected) == 3 * 6  # tps, p95, us, sy, wa, %util
    assert "disk-stall iostat:%util:vda (%)" in header and "baseline sysbench:tps (1/s)" in header
    x = np.array([float(r[0]) for r in body])
    assert WINDOW[0] <= x.min() < WINDOW[0] + 1 and WINDOW[1] - 1 < x.max() <= WINDOW[1]
    # the shifted run's column: its own samples, moved by the offset, inside the window only
    sbp = run_id(window, "small-buffer-pool")
    col = header.index("small-buffer-pool sysbench:tps (1/s)")
    t, v = s.data(sbp, next(ref for ref in s.available(sbp) if ref.spec() == "sysbench:tps"))
    want = t - s.run(sbp).start + SHIFT
    inside = (want >= WINDOW[0]) & (want <= WINDOW[1])
    got = [(float(r[0]), float(r[col])) for r in body if r[col]]
    assert np.allclose([g[0] for g in got], want[inside]) and np.array_equal([g[1] for g in got], v[inside])


def test_dialog_png_is_the_cli_png_and_csv_of_the_same_view(
    window: MainWindow, qtbot, db: Path, tmp_path: Path
) -> None:
    dialog = open_dialog(window, qtbot)
    choose(dialog, "PNG", tmp_path / "dialog.png", size="slide", scale="1", theme="publication")
    ours = export(dialog, qtbot, tmp_path / "dialog.png")
    window.session.save_view("for the cli")  # runs, panels, alignment, offsets
    x0, x1 = dialog.fig.x_range
    cli = tmp_path / "cli.png"
    args = ["export", "--db", str(db), "--view", "for the cli", "--from", repr(x0), "--to", repr(x1)]
    p = run_cli(tmp_path, *args, "--size", "slide", "--theme", "publication", "--out", str(cli))
    assert p.returncode == 0, p.stderr
    a, b = pixels(QImage(str(ours))), pixels(QImage(str(cli)))
    assert a.shape == (1080, 1920, 4)
    assert differing(a, b) < 0.001
    # and the comparison can tell: the whole runs instead of the window is another picture
    whole = window_figure(window.session, window.chart)
    whole.x_range = None
    assert differing(a, pixels(render.to_image(whole, (1920, 1080), 1.0, render.PUBLICATION))) > 0.05

    dialog = open_dialog(window, qtbot)
    choose(dialog, "CSV", tmp_path / "dialog.csv")
    ours_csv = export(dialog, qtbot, tmp_path / "dialog.csv")
    p = run_cli(tmp_path, *args, "--out", str(tmp_path / "cli.csv"))
    assert p.returncode == 0, p.stderr
    assert ours_csv.read_bytes() == (tmp_path / "cli.csv").read_bytes()


def test_sizes_scales_preview_and_remembered_choices(window: MainWindow, qtbot, tmp_path: Path, monkeypatch) -> None:
    dialog = open_dialog(window, qtbot)
    choose(dialog, "PNG", tmp_path / "custom.png", size="custom", scale="custom")
    dialog.width_box.setValue(800)
    dialog.height_box.setValue(500)
    dialog.scale_box.setValue(1.5)
    assert dialog.pixels.text() == "1200 × 750 pixels"
    dialog.update_preview()
    before = dialog.preview.pixmap().toImage()
    assert before.width() <= 400 and before.height() <= 260  # the thumbnail, at the chosen proportions
    assert before.width() / before.height() == pytest.approx(1.6, rel=0.02)
    dialog.title.setText("another title")
    qtbot.waitUntil(lambda: dialog.preview.pixmap().toImage() != before, timeout=2000)  # redrawn after typing
    assert QImage(str(export(dialog, qtbot, tmp_path / "custom.png"))).size().toTuple() == (1200, 750)

    dialog = open_dialog(window, qtbot)  # the last choices come back
    assert dialog.format.currentData() == "PNG" and dialog.size_choice.currentData() == "custom"
    assert dialog.chosen_scale() == 1.5
    assert dialog.chosen_size() == (800, 500) and Path(dialog.path.text()).parent == tmp_path
    choose(dialog, "PNG", tmp_path / "screen.png", size="screen")
    shown = (window.chart.width(), window.chart.height())
    assert QImage(str(export(dialog, qtbot, tmp_path / "screen.png"))).size().toTuple() == shown

    dialog = open_dialog(window, qtbot)  # an existing file is replaced only when the user says so
    from PySide6.QtWidgets import QMessageBox

    choose(dialog, "PNG", tmp_path / "screen.png", size="blog")
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.No)
    assert dialog.export() is None and QImage(str(tmp_path / "screen.png")).size().toTuple() == shown
    dialog.path.setText(str(tmp_path / "no such folder" / "x.png"))
    assert dialog.export() is None and "no folder" in dialog.status.text()
    dialog.reject()


def test_copy_chart_image_and_data_to_the_clipboard(window: MainWindow, qtbot) -> None:
    clipboard = QGuiApplication.clipboard()
    clipboard.clear()
    copy = action(window, "Copy chart image")
    assert copy.shortcut() == QKeySequence("Ctrl+Shift+C")
    window.settings.setValue("export/theme", "publication")  # the theme last chosen in the dialog
    copy.trigger()
    image = clipboard.image()
    dpr = window.chart.devicePixelRatioF()
    assert image.size().toTuple() == (round(window.chart.width() * dpr), round(window.chart.height() * dpr))
    fig = window_figure(window.session, window.chart)
    assert fig.x_range == pytest.approx(WINDOW)
    expected = render.to_image(fig, (window.chart.width(), window.chart.height()), dpr, render.PUBLICATION)
    assert differing(pixels(image), pixels(expected)) < 0.001
    screen = render.to_image(fig, (window.chart.width(), window.chart.height()), dpr, render.SCREEN)
    assert differing(pixels(image), pixels(screen)) > 0.001  # the theme does show

    action(window, "Copy data as CSV").trigger()
    rows = list(csv.reader(io.StringIO(clipboard.text())))
    assert rows[0][0] == "seconds" and "disk-stall sysbench:tps (1/s)" in rows[0]
    x = np.array([float(r[0]) for r in rows[1:]])
    assert WINDOW[0] <= x.min() and x.max() <= WINDOW[1]


def test_nothing_to_export_says_so(qtbot, db: Path, tmp_path: Path) -> None:
    w = open_window(qtbot, db, tmp_path / "s.ini", show=False)
    assert w.export_figure() is None
    assert "drag runs onto the charts" in w.statusBar().currentMessage()
    assert not w.findChildren(ExportDialog)
    close_window(w)
