"""Comparison rendering speed: `python bench/ui_speed.py` (offscreen).

Builds a library with 2 runs x 8 series x 86,400 points (24 h at 1 s, with short stalls), opens
them compared on 8 panels in the main window, and prints the time to the first complete paint
and the median time of 20 pan/zoom steps, each one a synchronous repaint of the charts.
Targets (PRODUCT.md): first paint <= 300 ms, pan/zoom <= 16 ms per step.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from benchlens.app.store import Library
from benchlens.app.store.writer import SeriesSink
from benchlens.importers._types import Block

N = 86_400
METRICS = [("vmstat", m, "") for m in ("us", "sy", "wa", "cs")] + [
    ("iostat", m, "sda") for m in ("w/s", "r/s", "%util", "w_await")
]


def make_library(path: Path) -> list[int]:
    rng = np.random.default_rng(1)
    ids = []
    with Library(path) as lib:
        for k, name in enumerate(("A", "B")):
            txn = lib.begin_import()
            run = txn.upsert_run(f"/bench/{name}", name, None)
            t = 1.79e9 + k * 10 * N + np.arange(N, dtype=np.float64)
            for source in ("vmstat", "iostat"):
                sid = txn.add_source(run, f"{source}.log", 1, 1, source)
                sink = SeriesSink(txn, sid, {})
                for src, metric, entity in METRICS:
                    if src != source:
                        continue
                    v = np.abs(rng.normal(50, 10, N)).round(2)
                    v[rng.integers(0, N, 40)] = 0.0  # 1 s stalls that must stay visible
                    sink.add([Block(entity, t, {metric: v})])
                sink.close()
                txn.finish_source(sid, "0" * 64, "", "", [], {})
            txn.finish_run(run, {})
            txn.commit()
            ids.append(run)
    return ids


def main() -> None:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from benchlens.app.analysis.layout import Panel
    from benchlens.app.model import SeriesRef
    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    app = QApplication([])
    d = Path(tempfile.mkdtemp())
    ids = make_library(d / "bench.sqlite")
    session = Session(d / "bench.sqlite")
    window = MainWindow(session, QSettings(str(d / "s.ini"), QSettings.Format.IniFormat))
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    view = window.chart.graphics.viewport()

    t0 = time.perf_counter()
    session.comparison.panels = [Panel(m, [SeriesRef(s, m, e)]) for s, m, e in METRICS]
    session.comparison.layout_is_default = False
    session.add_runs(ids)
    view.repaint()
    first = time.perf_counter() - t0

    vb = window.chart.plots[0].vb
    steps = []
    for i in range(20):
        (x0, x1), _ = vb.viewRange()
        w = x1 - x0
        t = time.perf_counter()
        if i % 2:
            vb.setXRange(x0 + w * 0.1, x1 + w * 0.1, padding=0)  # pan
        else:
            vb.setXRange(x0 + w * 0.15, x1 - w * 0.15, padding=0)  # zoom in
        view.repaint()
        steps.append(time.perf_counter() - t)
    points = 2 * len(METRICS) * N
    print(
        f"{points:,} points on {len(METRICS)} panels: first paint {first * 1000:.0f} ms (incl. loading the series), "
        f"pan/zoom median {statistics.median(steps) * 1000:.1f} ms, max {max(steps) * 1000:.1f} ms"
    )
    window.close()
    session.close()


if __name__ == "__main__":
    main()
