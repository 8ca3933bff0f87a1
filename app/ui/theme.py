"""The window's colours follow the system palette: light or dark (Qt's colour scheme, or a palette
whose window colour is dark), or the user's choice in View ▸ Theme (kept in the settings). The
charts take their background, text, grid, veil and muted colours from it; runs keep their colour
in every theme (it is what tells them apart), and exports keep their own themes (app/render.py)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QStyleFactory

MODES = ("system", "light", "dark")
_started: list[tuple[QPalette, str]] = []  # the palette and style the application started with


@dataclass(frozen=True)
class ChartTheme:
    dark: bool
    background: str  # the plot area
    text: str  # titles, tick labels
    muted: str  # a hidden legend entry, a note's label, the crosshair
    axis: str  # axis lines
    grid_alpha: float
    veil: QColor  # behind a drop's label
    note_fill: QColor  # a note's band


LIGHT = ChartTheme(
    False, "#ffffff", "#333333", "#888888", "#777777", 0.25, QColor(255, 255, 255, 210), QColor(120, 120, 120, 45)
)
DARK = ChartTheme(
    True, "#1e1f22", "#dddddd", "#8a8a8a", "#9a9a9a", 0.18, QColor(30, 31, 34, 215), QColor(200, 200, 200, 40)
)


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Window).lightnessF() < 0.5


def chart_theme(palette: QPalette | None = None) -> ChartTheme:
    """The chart colours for a palette (the application's by default)."""
    return DARK if is_dark(palette if palette is not None else QGuiApplication.palette()) else LIGHT


def dark_palette() -> QPalette:
    """A dark palette for the widgets (Fusion), for systems that have no dark palette of their own."""
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2d30",
        QPalette.ColorRole.WindowText: "#dfe1e5",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.AlternateBase: "#26282b",
        QPalette.ColorRole.ToolTipBase: "#3c3f41",
        QPalette.ColorRole.ToolTipText: "#dfe1e5",
        QPalette.ColorRole.Text: "#dfe1e5",
        QPalette.ColorRole.Button: "#3c3f41",
        QPalette.ColorRole.ButtonText: "#dfe1e5",
        QPalette.ColorRole.BrightText: "#ff6b68",
        QPalette.ColorRole.Highlight: "#2f65ca",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: "#6aa0f8",
        QPalette.ColorRole.PlaceholderText: "#8a8a8a",
        QPalette.ColorRole.Light: "#505357",
        QPalette.ColorRole.Midlight: "#45484c",
        QPalette.ColorRole.Mid: "#3a3d41",
        QPalette.ColorRole.Dark: "#1b1c1f",
        QPalette.ColorRole.Shadow: "#111214",
    }
    for role, color in roles.items():
        p.setColor(role, QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6f7276"))
    return p


def use(mode: str) -> None:
    """Apply a theme to the application: 'system' (the palette it started with, which follows the
    desktop's light or dark setting), 'light' or 'dark' (Fusion with a palette of its own)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    if not _started:
        _started.append((app.palette(), app.style().name()))
    palette, style = _started[0]
    if mode == "dark":
        app.setStyle(QStyleFactory.create("Fusion"))
        app.setPalette(dark_palette())
    elif mode == "light":
        app.setStyle(QStyleFactory.create("Fusion"))
        app.setPalette(app.style().standardPalette())
    else:
        app.setStyle(QStyleFactory.create(style))
        app.setPalette(palette)
    hints = app.styleHints()
    if hasattr(hints, "setColorScheme"):  # Qt >= 6.8: native dialogs and title bars follow
        scheme = {"dark": Qt.ColorScheme.Dark, "light": Qt.ColorScheme.Light}.get(mode, Qt.ColorScheme.Unknown)
        hints.setColorScheme(scheme)
