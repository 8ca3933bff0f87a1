"""Is the window responsive while it imports? `python bench/ui_import.py [FILE]` (offscreen).

Imports a large capture (default: bench/out/iostat-x-t-20dev.txt from bench/import_speed.py, 2M
lines) through the window's import dialog while a 10 ms timer measures how late the event loop
runs it: the longest stall and the 99th percentile are what a user would feel.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def main() -> None:
    import numpy as np
    from PySide6.QtCore import QEventLoop, QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    src = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "out" / "iostat-x-t-20dev.txt"
    if not src.exists():
        raise SystemExit(f"{src} missing: run bench/import_speed.py first")
    app = QApplication([])
    d = Path(tempfile.mkdtemp())
    folder = d / "big"
    folder.mkdir()
    (folder / src.name).symlink_to(src.resolve())
    session = Session(d / "lib.sqlite")
    window = MainWindow(session, QSettings(str(d / "s.ini"), QSettings.Format.IniFormat))
    window.show()
    ticks: list[float] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(10)
    loop = QEventLoop()
    t0 = time.perf_counter()
    dialog = window.import_paths([folder])
    dialog.imported.connect(loop.quit)
    dialog.failed.connect(loop.quit)
    loop.exec()
    took = time.perf_counter() - t0
    timer.stop()
    gaps = np.diff(np.array(ticks)) * 1000
    lines = sum(1 for _ in src.open("rb"))
    print(
        f"import of {lines:,} lines in the window: {took:.1f} s; event loop during it: {len(gaps)} ticks of 10 ms, "
        f"p99 gap {np.percentile(gaps, 99):.0f} ms, longest {gaps.max():.0f} ms"
    )
    window.close()
    session.close()
    app.quit()


if __name__ == "__main__":
    main()
