"""Comparison rendering speed: `python bench/ui_speed.py` (offscreen).

Builds a library with 2 runs x 8 series x 86,400 points (24 h at 1 s, with short stalls), opens
them compared on 8 panels in the main window at each window size (default 1600x1000, 1366x768
and 1920x1080; or `--size WxH ...`), and prints the time to the first paint (from the change
until every panel in view and the time axis have been painted: the panels below the fold are
built after it, app/ui/lazy_column.py), the time until every panel is built, the median time of
20 pan/zoom steps and, when the panels do not fit and the column scrolls, of 20 scroll steps of
120 px: each step the change and the event loop's repaint of what it dirtied (processEvents:
QWidget.repaint() of a parent does not repaint a QGraphicsView's scene).
Each time is given as wall clock and as the main thread's CPU time: on the shared 2-core machine
other jobs stretch the wall clock 2-3x, the CPU time is what the figure costs. Where it goes: the
CPU time of the change itself (building the panels and curves; a pan's new points and y ranges)
and of the event loop after it (painting, and at the first paint the Summary when it is shown).
Targets (PRODUCT.md, issue 24): first paint <= 150 ms at 1366x768, pan/zoom <= 8 ms per step
(issue 12's: scroll <= 16 ms). `--repeat N` measures each size N times, printing the best of them
(the machine's other work only ever adds time).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
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
    from PySide6.QtWidgets import QApplication

    args = sys.argv[1:]
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 1
    sizes = [tuple(int(v) for v in a.split("x")) for a in args if "x" in a] or [
        (1600, 1000),
        (1366, 768),
        (1920, 1080),
    ]
    app = QApplication([])
    d = Path(tempfile.mkdtemp())
    if "heatmap" in args:
        return heatmap_case(app, d)
    ids = make_library(d / "bench.sqlite")
    for w, h in sizes:
        runs = [measure(app, d, ids, (w, h)) for _ in range(repeat)]
        stick = yardstick()
        print(f"{w}x{h}, {2 * len(METRICS) * N:,} points on {len(METRICS)} panels: {report(runs, stick)}")
        sys.stdout.flush()


def yardstick() -> float:
    """CPU seconds of a fixed piece of work of the kind a pan does (Python calls, numpy on a few
    thousand points, a polyline painted), best of 7: the figures are also given as multiples of
    it, which moves less than the milliseconds when other jobs share the machine."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QImage, QPainter, QPolygonF

    xs = np.linspace(0, 1200, 2600)
    ys = 75 + 50 * np.sin(xs / 17.0)
    polygon = QPolygonF([QPointF(x, y) for x, y in zip(xs, ys, strict=True)])
    image = QImage(1200, 150, QImage.Format.Format_ARGB32_Premultiplied)

    def work() -> None:
        total = 0.0
        for k in range(20_000):
            total += float(k % 7) * 0.5
        for _ in range(20):
            np.fmin.reduce(ys[(xs >= 100.0) & (xs <= 1100.0)])
            p = QPainter(image)
            p.drawPolyline(polygon)
            p.end()

    times = []
    for _ in range(7):
        c = time.thread_time()
        work()
        times.append(time.thread_time() - c)
    return min(times)


Step = tuple[float, float]  # wall and CPU seconds


def measure(app: object, d: Path, ids: list[int], size: tuple[int, int]) -> dict[str, list[Step]]:
    """One window at `size`: each figure's steps (first paint, all built, pan/zoom, scroll)."""
    from pyqtgraph.widgets.GraphicsView import GraphicsView
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QScrollArea

    from benchlens.app.analysis.layout import Panel
    from benchlens.app.model import SeriesRef
    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    session = Session(d / "bench.sqlite")  # a new session: the series are loaded again
    window = MainWindow(session, QSettings(str(d / f"s{size[0]}.ini"), QSettings.Format.IniFormat))
    window.resize(*size)
    window.show()
    app.processEvents()  # type: ignore[attr-defined]
    chart = window.chart

    split: list[float] = []  # CPU time of each step's change, before the event loop
    painted: dict[int, Step] = {}  # id of a view (a panel, the time axis) -> end of its first paint
    paint = GraphicsView.paintEvent

    def timed_paint(view: GraphicsView, event: object) -> None:
        paint(view, event)
        painted.setdefault(id(view), (time.perf_counter(), time.thread_time()))

    def step(change: Callable[[], None]) -> Step:
        t, c = time.perf_counter(), time.thread_time()
        change()
        split.append(time.thread_time() - c)
        app.processEvents()  # type: ignore[attr-defined]
        return time.perf_counter() - t, time.thread_time() - c

    def show() -> None:
        session.comparison.panels = [Panel(m, [SeriesRef(s, m, e)]) for s, m, e in METRICS]
        session.comparison.layout_is_default = False
        session.add_runs(ids)

    GraphicsView.paintEvent = timed_paint  # the end of each view's first paint
    t0, c0 = time.perf_counter(), time.thread_time()
    step(show)
    built = split.pop()
    while getattr(chart, "_pending", None):  # the panels below the fold, built after the first paint
        app.processEvents()  # type: ignore[attr-defined]
    done = (time.perf_counter() - t0, time.thread_time() - c0)
    GraphicsView.paintEvent = paint
    shown = [w for w in chart.widgets if not w.viewport().visibleRegion().isEmpty()] + [chart.axis_strip]
    ends = [painted[id(w)] for w in shown if id(w) in painted]
    first = (max(w for w, _ in ends) - t0, max(c for _, c in ends) - c0) if len(ends) == len(shown) else done
    vb = chart.plots[0].vb

    def pan_zoom(i: int) -> None:
        (x0, x1), _ = vb.viewRange()
        w = x1 - x0
        if i % 2:
            vb.setXRange(x0 + w * 0.1, x1 + w * 0.1, padding=0)  # pan
        else:
            vb.setXRange(x0 + w * 0.15, x1 - w * 0.15, padding=0)  # zoom in

    split.clear()
    steps = [step(partial(pan_zoom, i)) for i in range(20)]
    figures = {"first": [first], "built": [(built, built)], "done": [done], "pan": steps}
    figures["change"] = [(c, c) for c in split]
    area = getattr(chart, "column_scroll", None)  # before issue 12 the charts did not scroll
    bar = area.verticalScrollBar() if isinstance(area, QScrollArea) else None
    if bar is not None and bar.maximum() > 0:
        moves = [120 if (i // 5) % 2 == 0 else -120 for i in range(20)]
        figures["scroll"] = [step(partial(lambda d: bar.setValue(bar.value() + d), d)) for d in moves]
    window.close()
    session.close()
    return figures


def report(runs: list[dict[str, list[Step]]], stick: float) -> str:
    """The figures of the best of the runs (each figure's own best: other jobs only add time), with
    the CPU time as a multiple of the yardstick."""

    def best(key: str, how: Callable[[list[float]], float]) -> str:
        per_run = [(how([w for w, _ in r[key]]), how([c for _, c in r[key]])) for r in runs]
        cpu = min(c for _, c in per_run)
        return f"{min(w for w, _ in per_run) * 1000:.1f} ms ({cpu * 1000:.1f} cpu = {cpu / stick:.2f} y)"

    built = min(r["built"][0][1] for r in runs)
    change = min(statistics.median(c for c, _ in r["change"]) for r in runs)
    line = f"first paint {best('first', max)} (incl. loading the series; the change {built * 1000:.0f} cpu, then paint)"
    line += f", every panel built {best('done', max)}"
    line += f", pan/zoom median {best('pan', statistics.median)} (change {change * 1000:.1f} cpu, then paint)"
    line += f", max {best('pan', max)}"
    if all("scroll" in r for r in runs):
        line += f"; scroll median {best('scroll', statistics.median)}, max {best('scroll', max)}"
    line += f"  [y = yardstick {stick * 1000:.2f} ms cpu]"
    return line + (f" [best of {len(runs)}]" if len(runs) > 1 else "")


def heatmap_case(app: object, d: Path, rounds: int = 5) -> None:
    """Issue 25: 256 CPUs x 24 h at 1 s (bench/heatmap_data.py), opened on its default layout
    (the CPU panel with the hot CPU, the heatmap of every CPU) at 1366x768, and exported to PNG
    from a new run data (loading included), each in a process of its own as a user starts one (in
    one process the later rounds reuse the memory the first one freed: ~1.5x faster than a user
    ever sees). The best and the median of `rounds`, and the best as a ratio to numpy reading the
    values the heatmap shows (257 x 86,400 float64) from a file in the page cache: the machine's
    speed of the moment (on the shared 2-core machine absolute times move 2-3x between runs, the
    ratios less). Targets: open <= 500 ms, export <= 2 s."""
    import subprocess

    from PySide6.QtCore import QSettings

    from bench.heatmap_data import many_cpus
    from bench.timing import best
    from benchlens.app.figure import Comparison, default_layout, figure_of
    from benchlens.app.render import export
    from benchlens.app.rundata import LibraryRunData
    from benchlens.app.ui.main_window import MainWindow
    from benchlens.app.ui.session import Session

    one = os.environ.get("BENCH_HEAT_ONE")  # one round in this process: "open|export RUN LIBRARY"
    if one:  # (in the environment: main() reads any argument with an "x" in it as a window size)
        what, run_id, path = one.split(" ", 2)
        db, run = Path(path), int(run_id)
        t = time.perf_counter()
        if what == "export":
            with Library(db) as lib:
                data = LibraryRunData(lib)
                export(figure_of(data, Comparison([run], default_layout(data, [run]))), d / "heat.png", (1366, 768))
            print(time.perf_counter() - t)
            return
        session = Session(db)
        window = MainWindow(session, QSettings(str(d / "heat.ini"), QSettings.Format.IniFormat))
        window.resize(1366, 768)
        window.show()
        app.processEvents()  # type: ignore[attr-defined]
        t = time.perf_counter()
        session.add_runs([run])
        app.processEvents()  # type: ignore[attr-defined]
        print(time.perf_counter() - t)
        assert window.chart.heatmaps, "the default layout has no heatmap"
        return

    t = time.perf_counter()
    db = d / "heat.sqlite"
    with Library(db) as lib:
        run = many_cpus(lib, N)
    print(f"library: 256 CPUs x {N:,} s written in {time.perf_counter() - t:.1f} s")
    floor = d / "floor.bin"  # what the heatmap shows: 257 CPUs' 86,400 values, as float64
    floor.write_bytes(np.zeros(257 * N).tobytes())
    reference = best(lambda: np.fromfile(floor, "<f8"), rounds)
    print(f"numpy reading 257 x {N:,} float64 ({257 * N * 8 / 1e6:.0f} MB, the reference): {reference * 1000:.0f} ms")
    for what, target in (("open", 0.5), ("export", 2.0)):
        took = []
        for _ in range(rounds):
            env = {**os.environ, "BENCH_HEAT_ONE": f"{what} {run} {db}"}
            out = subprocess.run([sys.executable, __file__, "heatmap"], env=env, capture_output=True, text=True)
            if out.returncode:
                raise SystemExit(out.stderr)
            took.append(float(out.stdout.split()[-1]))
        print(
            f"{what} (with its heatmap), best of {rounds}: {min(took) * 1000:.0f} ms = {min(took) / reference:.1f}x "
            f"the reference; median {statistics.median(took) * 1000:.0f} ms; target {target * 1000:.0f} ms"
        )


def ms(times: tuple[float, float] | list[tuple[float, float]], how: Callable[[list[float]], float]) -> str:
    """'wall ms (cpu ms)' of one step, or of several summarised by `how` (median, max)."""
    steps = times if isinstance(times, list) else [times]
    wall, cpu = how([w for w, _ in steps]), how([c for _, c in steps])
    return f"{wall * 1000:.1f} ms ({cpu * 1000:.1f} cpu)"


if __name__ == "__main__":
    main()
