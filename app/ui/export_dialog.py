"""File ▸ Export… and Edit ▸ Copy chart image / Copy data as CSV.

All three start from the figure of what the window shows (`window_figure`: the comparison's runs,
panels, alignment, offsets, notes and drops as decided, and the visible time window), built by
app.figure.figure_of exactly as `benchlens export` builds it, and drawn by app/render.py: a PNG
from here is the PNG the command line writes for the same view."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QImage, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from benchlens.app import render
from benchlens.app.errors import BenchlensError
from benchlens.app.figure import Comparison, Figure, blog_layout, csv_text, figure_of, write_csv
from benchlens.app.ui.charts import ComparisonView
from benchlens.app.ui.session import Session

FORMATS = {"PNG": ".png", "SVG": ".svg", "PDF": ".pdf", "CSV": ".csv"}
SCREEN, CUSTOM = "screen", "custom"  # size choices besides the render.SIZES presets
SCALES = {"1": "1× (1 px per point)", "2": "2× (retina)", CUSTOM: "custom"}
PREVIEW = (400, 260)  # the thumbnail's box, pixels
DEFAULT_THEME = "screen"  # until the user picks one: the window's own colours


def window_view(session: Session, chart: ComparisonView) -> Comparison:
    """The comparison as shown: the session's state with the time window read from the charts
    (mouse zooms and pans move the view without telling the session)."""
    c = session.comparison
    if not c.runs or not c.panels:
        raise BenchlensError("drag runs onto the charts first")
    return dataclasses.replace(
        c, runs=list(c.runs), panels=list(c.panels), offsets=dict(c.offsets), x_range=chart.visible_range()
    )


def window_figure(session: Session, chart: ComparisonView, title: str | None = None) -> Figure:
    # the window's own findings: an export detects and explains nothing again
    return figure_of(session.rundata, window_view(session, chart), title, session.compared_findings())


def screen_size(chart: ComparisonView) -> tuple[int, int]:
    return max(chart.width(), 100), max(chart.height(), 100)


def current_theme(settings: QSettings) -> str:
    theme = str(settings.value("export/theme", DEFAULT_THEME))
    return theme if theme in render.THEMES else DEFAULT_THEME


def copy_image(session: Session, chart: ComparisonView, settings: QSettings) -> QImage:
    """Edit ▸ Copy chart image: the view at its size on screen (device pixels), current theme."""
    fig = window_figure(session, chart)
    img = render.to_image(fig, screen_size(chart), chart.devicePixelRatioF(), render.THEMES[current_theme(settings)])
    QGuiApplication.clipboard().setImage(img)
    return img


def copy_csv(session: Session, chart: ComparisonView) -> str:
    """Edit ▸ Copy data as CSV: the visible data, the rows `benchlens export --out x.csv` writes."""
    text = csv_text(window_figure(session, chart))
    QGuiApplication.clipboard().setText(text)
    return text


class ExportDialog(QDialog):
    exported = Signal(str)  # the path written

    def __init__(self, session: Session, chart: ComparisonView, settings: QSettings, parent: QWidget | None = None):
        fig = window_figure(session, chart)  # first: nothing to export leaves no dialog behind
        super().__init__(parent)
        self.setWindowTitle("Export")
        self.settings = settings
        self.fig = fig  # what the window shows now; the options only change how it is drawn
        self.shown = fig
        self.session, self.view = session, window_view(session, chart)
        self.panels_choice = QComboBox()
        self.panels_choice.addItem(f"as shown ({len(fig.panels)} panels)", "shown")
        self.panels_choice.addItem("blog: the story in 3–4 panels", "blog")
        self.screen_px = screen_size(chart)
        self.format = QComboBox()
        for name in FORMATS:
            self.format.addItem(name, name)
        self.size_choice = QComboBox()
        for key, (w, h) in render.SIZES.items():
            self.size_choice.addItem(f"{key} {w}×{h}", key)
        self.size_choice.addItem(f"as on screen {self.screen_px[0]}×{self.screen_px[1]}", SCREEN)
        self.size_choice.addItem("custom", CUSTOM)
        self.width_box, self.height_box = QSpinBox(), QSpinBox()
        for box, value in ((self.width_box, 1200), (self.height_box, 675)):
            box.setRange(100, 10000)
            box.setValue(value)
            box.setSuffix(" px")
        self.scale = QComboBox()
        for key, text in SCALES.items():
            self.scale.addItem(text, key)
        self.scale_box = QDoubleSpinBox(decimals=2, minimum=0.25, maximum=8.0, singleStep=0.25, value=1.5)
        self.scale_box.setSuffix("×")
        self.theme = QComboBox()
        for key in render.THEMES:
            self.theme.addItem(key, key)
        self.title = QLineEdit(self.fig.title)
        self.title.setCursorPosition(0)  # show the start of a long title
        self.path = QLineEdit()
        browse = QPushButton("Browse…")
        browse.clicked.connect(self.browse)
        self.pixels = QLabel()
        self.status = QLabel()
        self.status.setStyleSheet("color: #b00020")
        self.status.setWordWrap(True)
        self.preview = QLabel()
        self.preview.setFixedSize(*PREVIEW)
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setStyleSheet("background: #f4f4f4; border: 1px solid #cccccc")

        self._lay_out(browse)
        self._timer = QTimer(self, singleShot=True, interval=150)  # redraw the thumbnail once typing pauses
        self._timer.timeout.connect(self.update_preview)
        self._restore()
        self.panels_choice.currentIndexChanged.connect(self._panels_changed)
        for combo in (self.format, self.size_choice, self.scale, self.theme):
            combo.currentIndexChanged.connect(self._changed)
        for spin in (self.width_box, self.height_box, self.scale_box):
            spin.valueChanged.connect(self._changed)
        self.title.textChanged.connect(self._changed)
        self.format.currentIndexChanged.connect(self._format_changed)
        self._sync()
        self.update_preview()

    def _lay_out(self, browse: QPushButton) -> None:
        """The options on the left, the thumbnail on the right, the status and buttons under them."""
        form = QFormLayout()
        form.addRow("Format:", self.format)
        form.addRow("Panels:", self.panels_choice)
        form.addRow("Size:", self._row(self.size_choice, self.width_box, QLabel("×"), self.height_box))
        form.addRow("Scale (PNG):", self._row(self.scale, self.scale_box))
        form.addRow("Theme:", self.theme)
        form.addRow("Title:", self.title)
        form.addRow("File:", self._row(self.path, browse))
        form.addRow("", self.pixels)
        side = QVBoxLayout()
        side.addWidget(self.preview)
        side.addStretch(1)
        body = QHBoxLayout()
        body.addLayout(form, 1)
        body.addLayout(side)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = buttons.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setDefault(True)
        buttons.accepted.connect(self.export)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(body)
        lay.addWidget(self.status)
        lay.addWidget(buttons)

    @staticmethod
    def _row(*widgets: QWidget) -> QWidget:
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in widgets:
            lay.addWidget(w, 1 if isinstance(w, (QComboBox, QLineEdit)) else 0)
        return row

    # ---- the options ---------------------------------------------------------------------------
    def chosen_format(self) -> str:
        return str(self.format.currentData())

    def chosen_size(self) -> tuple[int, int]:
        key = self.size_choice.currentData()
        if key == SCREEN:
            return self.screen_px
        if key == CUSTOM:
            return self.width_box.value(), self.height_box.value()
        return render.SIZES[key]

    def chosen_scale(self) -> float:
        """The PNG pixel ratio; vector formats are drawn at 1 (their size is the page size)."""
        if self.chosen_format() != "PNG":
            return 1.0
        key = self.scale.currentData()
        return self.scale_box.value() if key == CUSTOM else float(key)

    def chosen_theme(self) -> render.Theme:
        return render.THEMES[self.theme.currentData()]

    def chosen_path(self) -> Path:
        """The file, its suffix made to match the format."""
        path = Path(self.path.text().strip()).expanduser()
        suffix = FORMATS[self.chosen_format()]
        return path if path.suffix.lower() == suffix else path.with_suffix(suffix)

    def figure(self) -> Figure:
        self.fig.title = self.title.text()
        return self.fig

    # ---- behaviour -----------------------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings

        def pick(combo: QComboBox, key: str, default: str) -> None:
            combo.setCurrentIndex(max(combo.findData(str(s.value(key, default))), 0))

        pick(self.format, "export/format", "PNG")
        pick(self.size_choice, "export/size", "blog")
        pick(self.scale, "export/scale", "1")
        pick(self.theme, "export/theme", DEFAULT_THEME)
        self.width_box.setValue(int(str(s.value("export/width", 1200))))
        self.height_box.setValue(int(str(s.value("export/height", 675))))
        self.scale_box.setValue(float(str(s.value("export/custom_scale", 1.5))))
        folder = Path(str(s.value("export/dir", Path.home())))
        stem = re.sub(r"[^\w.-]+", "-", self.fig.title).strip("-.") or "benchlens"
        self.path.setText(str(folder / (stem + FORMATS[self.chosen_format()])))

    def _save(self, out: Path) -> None:
        s = self.settings
        s.setValue("export/format", self.chosen_format())
        s.setValue("export/size", self.size_choice.currentData())
        s.setValue("export/scale", self.scale.currentData())
        s.setValue("export/theme", self.theme.currentData())
        s.setValue("export/width", self.width_box.value())
        s.setValue("export/height", self.height_box.value())
        s.setValue("export/custom_scale", self.scale_box.value())
        s.setValue("export/dir", str(out.parent))

    def _format_changed(self) -> None:
        if self.path.text().strip():
            self.path.setText(str(self.chosen_path()))

    def _panels_changed(self) -> None:
        """As shown, or the blog preset (at blog size, as `benchlens export --preset blog`)."""
        blog = self.panels_choice.currentData() == "blog"
        if blog:  # the same runs and time window, the story's panels (computed when first asked for)
            found = self.session.compared_findings()
            panels = blog_layout(self.session.rundata, self.view.runs, found)
            self.fig = figure_of(self.session.rundata, dataclasses.replace(self.view, panels=panels), None, found)
        else:
            self.fig = self.shown
        self.fig.title = self.title.text()
        if blog:
            self.size_choice.setCurrentIndex(max(self.size_choice.findData("blog"), 0))
        self._changed()

    def _changed(self) -> None:
        self._sync()
        self._timer.start()

    def _sync(self) -> None:
        """Enable what applies to the format and say how big the result is."""
        fmt = self.chosen_format()
        picture = fmt != "CSV"
        for widget in (self.size_choice, self.theme, self.title):
            widget.setEnabled(picture)
        custom = picture and self.size_choice.currentData() == CUSTOM
        self.width_box.setEnabled(custom)
        self.height_box.setEnabled(custom)
        self.scale.setEnabled(fmt == "PNG")
        self.scale_box.setEnabled(fmt == "PNG" and self.scale.currentData() == CUSTOM)
        w, h = self.chosen_size()
        if fmt == "PNG":
            k = self.chosen_scale()
            self.pixels.setText(f"{round(w * k)} × {round(h * k)} pixels")
        elif picture:
            self.pixels.setText(f"{w} × {h} px page, vector")
        else:
            x = self.fig.x_range
            span = f"{x[0]:g} to {x[1]:g}" if x and self.fig.align != "absolute" else "the visible window"
            self.pixels.setText(f"the plotted data, {span}: one column per run and series")

    def update_preview(self) -> None:
        """The thumbnail: the figure drawn by the exporter at the chosen size, shrunk to fit."""
        w, h = self.chosen_size()
        dpr = self.devicePixelRatioF()
        fit = min(PREVIEW[0] / w, PREVIEW[1] / h) * 0.96
        img = render.to_image(self.figure(), (w, h), fit * dpr, self.chosen_theme())
        img.setDevicePixelRatio(dpr)  # show it at the thumbnail size, sharp on a retina screen
        self.preview.setPixmap(QPixmap.fromImage(img))

    def browse(self) -> None:
        fmt = self.chosen_format()
        path, _ = QFileDialog.getSaveFileName(self, "Export to", str(self.chosen_path()), f"{fmt} (*{FORMATS[fmt]})")
        if path:
            self.path.setText(path)
            self.path.setProperty("confirmed", str(self.chosen_path()))  # the file dialog asked about overwriting

    def export(self) -> Path | None:
        """Write the file; on success close the dialog and return the path, else say why."""
        if not self.path.text().strip():
            self.status.setText("Choose a file to write.")
            return None
        out = self.chosen_path()
        if not out.parent.is_dir():
            self.status.setText(f"There is no folder {out.parent}.")
            return None
        if out.exists() and self.path.property("confirmed") != str(out):
            answer = QMessageBox.question(self, "Export", f"{out.name} exists. Replace it?")
            if answer != QMessageBox.StandardButton.Yes:
                return None
        try:
            if self.chosen_format() == "CSV":
                write_csv(self.fig, out)
            else:
                render.export(self.figure(), out, self.chosen_size(), self.chosen_scale(), self.chosen_theme())
        except (OSError, ValueError) as e:
            self.status.setText(f"Cannot write {out}: {e}")
            return None
        self._save(out)
        self.exported.emit(str(out))
        self.accept()
        return out
