"""Where the bundled resources (demo runs, icons, the .desktop entry) are: installed, bundled or in a
checkout.

The repository's top-level resources/ folder is the one source. A wheel (pip, pipx) ships it as
app/_resources/ (pyproject.toml maps the package `app._resources` to resources/), and the
PyInstaller bundle copies it to the same place (packaging/benchlens.spec). A checkout or an
editable install has no app/_resources/ and reads resources/ next to app/.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resources_dir() -> Path:
    installed = _PACKAGE / "_resources"
    return installed if installed.is_dir() else _PACKAGE.parent / "resources"


def demo_folders() -> list[Path]:
    demo = resources_dir() / "demo"
    return sorted(p for p in demo.iterdir() if p.is_dir()) if demo.is_dir() else []


def icon_files() -> list[Path]:
    """The app icon's PNG renders (benchlens-16.png … benchlens-512.png), smallest first."""
    icons = resources_dir() / "icons"
    found = [p for p in icons.glob("benchlens-*.png") if p.stem.rsplit("-", 1)[1].isdigit()]
    return sorted(found, key=lambda p: int(p.stem.rsplit("-", 1)[1]))
