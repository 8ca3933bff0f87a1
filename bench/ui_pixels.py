"""Whether a change to the window's drawing leaves its pixels as they were: `python bench/ui_pixels.py
shoot DIR` (offscreen) writes the main window as PNGs, `python bench/ui_pixels.py same DIR1 DIR2`
says which differ. Run `shoot` once from a checkout of main and once from the change (each
imports benchlens from the folder it is run in), then `same`; look at the PNGs too.

The window is shot at 1366x768 and 1920x1080 on the runs of bench/ui_speed.py (2 runs x 8 panels),
the demo, a recorded CPU hog pair and five recorded runs (bench/drop_quality/runs/, a library
made once under /tmp/benchlens-pixels and copied for each window): as opened, after 3 and after 8
pan/zoom steps (the top panel zoomed and panned as bench/ui_speed.py does, a lower panel panned as
a drag does, the keys), scrolled to the bottom (the panels built after the first paint), and
zoomed out there and scrolled back up (the panels that were out of view catch up). Each state is
shot twice: the window drawn anew (grab) and what the screen shows (repainted bit by bit).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, os.getcwd())  # the checkout it is run from: main's or the change's
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parents[1]
LIBS = Path("/tmp/benchlens-pixels")
RECORDED = ROOT / "bench" / "drop_quality" / "runs"
CASES = {
    "bench": [],
    "demo": [],
    "cpu-hog": ["quiet-1", "cpu-hogs"],
    "five-runs": ["quiet-1", "cpu-hogs", "purge-lag-long-churn", "row-lock-long-bursty", "disk-burst"],
}
SIZES = [(1366, 768), (1920, 1080)]


def library(case: str) -> tuple[Path, list[int]]:
    """The case's library (made once) and the runs it compares."""
    from benchlens.app.ingest import Options, import_path
    from benchlens.app.store import Library
    from benchlens.app.ui.launch import demo_library

    LIBS.mkdir(exist_ok=True)
    db = LIBS / f"{case}.sqlite"
    made = db.exists()
    if case == "bench":
        from bench.ui_speed import make_library

        if not made:
            return db, make_library(db)
        with Library(db) as lib:
            return db, [r.id for r in lib.runs()]
    if case == "demo":
        return db, demo_library(db)
    with Library(db) as lib:
        return db, [import_path(lib, RECORDED / name, Options(name=name)).id for name in CASES[case]]


def shoot(out: Path) -> None:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([])
    app.setCursorFlashTime(0)  # a text cursor that blinks would differ from one shot to the next
    out.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        db, ids = library(case)
        for w, h in SIZES:
            scratch = Path(tempfile.mkdtemp())
            shutil.copy(db, scratch / "lib.sqlite")
            shoot_window(app, scratch, case == "bench", ids, (w, h), out / f"{case}-{w}x{h}")
            shutil.rmtree(scratch, ignore_errors=True)
            print(case, f"{w}x{h}", flush=True)


def shoot_window(app: Any, scratch: Path, bench: bool, ids: list[int], size: tuple[int, int], name: Path) -> None:
    """The window on the library in `scratch` comparing `ids`, shot as opened, after 3 and 8 steps
    and scrolled to the bottom, as `name`-STATE.png."""
    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtTest import QTest

    from benchlens.app.analysis.layout import Panel
    from benchlens.app.model import SeriesRef
    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    session = Session(scratch / "lib.sqlite")
    window = MainWindow(session, QSettings(str(scratch / "s.ini"), QSettings.Format.IniFormat))
    window.resize(*size)
    window.show()
    app.processEvents()
    if bench:
        from bench.ui_speed import METRICS

        session.comparison.panels = [Panel(m, [SeriesRef(s, m, e)]) for s, m, e in METRICS]
        session.comparison.layout_is_default = False
    session.add_runs(ids)
    chart = window.chart

    def save(state: str) -> None:
        QTest.qWait(900)  # the timers a change starts have run (the zoom history's 400 ms, the Summary's)
        window.grab().save(f"{name}-{state}.png")  # the window drawn anew
        # and what the screen shows: the window as repainted bit by bit since it opened
        window.screen().grabWindow(window.winId()).save(f"{name}-{state}-screen.png")

    save("opened")
    top = chart.built_plots()[0].vb
    for i in range(8):
        (x0, x1), _ = top.viewRange()
        span = x1 - x0
        if i in (0, 4):
            top.setXRange(x0 + span * 0.15, x1 - span * 0.15, padding=0)  # zoom in
        elif i in (1, 5):
            top.setXRange(x0 + span * 0.1, x1 + span * 0.1, padding=0)  # pan
        elif i in (2, 6):  # a drag on a lower panel
            low = chart.built_plots()[min(2, len(chart.built_plots()) - 1)].vb
            low.translateBy(x=-span * 0.07)
        else:
            key = Qt.Key.Key_Plus if i == 3 else Qt.Key.Key_Left
            chart.keyPressEvent(QKeyEvent(QKeyEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier))
        app.processEvents()
        if i in (2, 7):
            save(f"step{i + 1}")
    bar = chart.column_scroll.verticalScrollBar()
    bar.setValue(bar.maximum())
    save("bottom")
    (x0, x1), _ = top.viewRange()
    top.setXRange(x0 - (x1 - x0) * 0.2, x1 + (x1 - x0) * 0.1, padding=0)  # zoomed out there, then back up
    app.processEvents()
    bar.setValue(0)
    save("back-up")
    session.close()
    window.close()


def same(a: Path, b: Path) -> int:
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    _ = QApplication.instance() or QApplication([])
    names = sorted(p.name for p in a.glob("*.png"))
    differ = [n for n in names if QImage(str(a / n)) != QImage(str(b / n))]
    print(f"{len(names) - len(differ)} of {len(names)} identical", f"; differ: {', '.join(differ)}" if differ else "")
    return 1 if differ or not names else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["shoot"]:
        shoot(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["same"]:
        sys.exit(same(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
