"""Render resources/icons/benchlens.svg to the PNG sizes the desktop and the window use.

    python packaging/make_icons.py            # writes resources/icons/benchlens-<N>.png

The SVG is the source; the PNGs are committed so that neither the app nor an install needs Qt's
SVG icon engine to show the icon (the window icon is built from the PNGs, see app/resources.py).
Run it again after editing the SVG.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"


def render(svg: Path, size: int, out: Path) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"make_icons: {svg} is not a valid SVG for Qt")
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    if not image.save(str(out), "PNG"):
        raise SystemExit(f"make_icons: cannot write {out}")


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (QImage text/paint needs one)
    svg = ICONS / "benchlens.svg"
    for size in SIZES:
        out = ICONS / f"benchlens-{size}.png"
        render(svg, size, out)
        print(f"{out.relative_to(ICONS.parent.parent)}  {out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
