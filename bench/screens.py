"""The screenshots issue #24's "Done when" asks for: `python bench/screens.py [--out DIR] [--only CASE ...]`.

Imports real run folders into a scratch library (the disturbance corpus of bench/drop_quality/,
the every-collector fixture, the demo) and writes, for each case, the window at 1366x768 and
1920x1080 (`benchlens screenshot`, offscreen) and the default export (the story, <= 4 panels:
the blog preset) and the export of every panel (`--preset all`), as PNG under DIR (default
/tmp/benchlens-screens; not committed). A person looks at them: this script checks nothing.

No public 4-hour tpcc-mysql log is at hand, so the 4-hour case is built from the corpus: the
1-s sysbench reports and vmstat lines of real runs, cycled end to end to 4 h at 1 s (times
renumbered, values as recorded), in a run folder under DIR.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "bench" / "drop_quality" / "runs"
FIXTURES = ROOT / "tests" / "fixtures" / "runs"
DEMO = ROOT / "resources" / "demo"
LONG = 4 * 3600  # seconds of the long run
# 4-thread runs of the corpus, mostly quiet (one thread count: a change would mark a load step)
LONG_FROM = [
    "quiet-1",
    "quiet-2",
    "cpu-hogs",
    "quiet-3",
    "row-lock-short-smooth",
    "quiet-1",
    "disk-writers-long-smooth",
]
START = 1_795_000_000.0

# case -> the runs compared (folder names) and the window's theme
CASES: dict[str, tuple[list[str], str]] = {
    "setting-pair": (["pair-flushlog-1", "pair-flushlog-2"], "light"),
    "cpu-hog": (["quiet-1", "cpu-hogs"], "light"),
    "cpu-hog-every-collector": (["every_collector_quiet", "every_collector_cpuhog"], "light"),
    "purge-lag": (["quiet-2", "purge-lag-long-churn"], "light"),
    "row-lock": (["quiet-3", "row-lock-long-bursty"], "light"),
    "five-runs": (["quiet-1", "cpu-hogs", "purge-lag-long-churn", "row-lock-long-bursty", "disk-burst"], "light"),
    "dark": (["quiet-2", "purge-lag-long-churn"], "dark"),
    "demo": (["baseline", "disk-stall", "small-buffer-pool"], "light"),
    "four-hours": (["four-hours"], "light"),
}
SIZES = ["1366x768", "1920x1080"]
EXPORTS = {"default": [], "all": ["--preset", "all"]}
OUT = [Path("/tmp/benchlens-screens")]  # where main writes: the settings' folder is there


def env_of(out: Path) -> dict[str, str]:
    """Offscreen, with settings of its own under `out` (the user's window size and docks stay theirs)."""
    return dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(out / "config"))


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = env_of(OUT[0])
    cmd = [sys.executable, "-m", "benchlens.app.cli", *args]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        print(f"FAILED ({done.returncode}): {' '.join(args)}\n{done.stderr.strip()}", file=sys.stderr)
    return done


def lines_of(path: Path) -> list[str]:
    for p in (path, path.with_name(path.name + ".gz")):
        if p.exists():
            data = gzip.decompress(p.read_bytes()) if p.suffix == ".gz" else p.read_bytes()
            return data.decode().splitlines()
    raise FileNotFoundError(path)


def four_hour_run(out: Path) -> Path:
    """The corpus's 1-s sysbench reports and vmstat lines cycled to LONG seconds."""
    folder = out / "four-hours"
    folder.mkdir(parents=True, exist_ok=True)
    report = re.compile(r"^\[ \d+s \] (.*)$")
    stamp = re.compile(r" \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
    reports = [m.group(1) for r in LONG_FROM for line in lines_of(RUNS / r / "bench.log") if (m := report.match(line))]
    vm = [line for r in LONG_FROM for line in lines_of(RUNS / r / "vmstat.log") if stamp.search(line)]
    head = lines_of(RUNS / LONG_FROM[0] / "vmstat.log")[:2]
    bench = ["sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)", "", "Threads started!", ""]
    bench += [f"[ {s}s ] {reports[(s - 1) % len(reports)]}" for s in range(1, LONG + 1)]
    (folder / "bench.log").write_text("\n".join(bench) + "\n")
    rows = []
    for s in range(LONG + 1):
        t = START + s
        when = f"{_utc(t)}"
        rows.append(stamp.sub(" " + when, vm[s % len(vm)]))
    (folder / "vmstat.log").write_text("\n".join(head + rows) + "\n")
    meta = {
        "format": "benchlens-run",
        "version": 1,
        "host": "vm",
        "zone": "UTC",
        "utc_offset": 0,
        "start": START,
        "bench_start": START,
        "bench_end": START + LONG,
        "end": START + LONG,
        "interval": 1,
        "commands": {"vmstat.log": "vmstat -t 1", "bench.log": "sysbench oltp_read_write --report-interval=1 run"},
    }
    (folder / "benchlens-run.json").write_text(json.dumps(meta, indent=1))
    return folder


def _utc(t: float) -> str:
    import datetime as dt

    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%d %H:%M:%S")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/benchlens-screens"))
    ap.add_argument("--only", nargs="*", choices=sorted(CASES), help="these cases only")
    args = ap.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    OUT[:] = [out]
    db = out / "library.sqlite"
    cases = {k: v for k, v in CASES.items() if not args.only or k in args.only}
    wanted = {name for runs, _ in cases.values() for name in runs}
    folders = {p.name: p for base in (RUNS, FIXTURES, DEMO) if base.is_dir() for p in base.iterdir() if p.is_dir()}
    if "four-hours" in wanted:
        folders["four-hours"] = four_hour_run(out)
    missing = wanted - folders.keys()
    if missing:
        print(f"no run folder for {sorted(missing)}", file=sys.stderr)
        return 2
    for name in sorted(wanted):
        cli("import", str(folders[name]), "--db", str(db), "--name", name)
    for case, (runs, theme) in cases.items():
        picked = [a for name in runs for a in ("--run", name)]
        for size in SIZES:
            shot = str(out / f"{case}-{size}.png")
            cli("screenshot", shot, "--db", str(db), *picked, "--size", size, "--theme", theme)
        for kind, extra in EXPORTS.items():
            look = ["--theme", "screen"] if theme == "dark" else []
            cli("export", "--db", str(db), *picked, *extra, *look, "--out", str(out / f"{case}-export-{kind}.png"))
        print(case, flush=True)
    cli("screenshot", str(out / "demo-flag-1366x768.png"), "--demo", "--size", "1366x768")
    for case in cases:
        if case in INTERACT:
            interact(db, case, cases[case][0], out)
    return 0


INTERACT = ("five-runs", "cpu-hog-every-collector", "four-hours")


def interact(db: Path, case: str, runs: list[str], out: Path) -> None:
    """What a user does next, in a window of its own process: the first drop of the last run
    clicked (zoom to it, What changed opens), then the crosshair readout over the top panel."""
    code = f"""
import sys
from pathlib import Path
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QTreeWidgetItemIterator
from benchlens.app.ui.launch import _app, build_window
from benchlens.app.ui.drops_view import DROP
app = _app()
for size in ({SIZES!r}):
    w = build_window(Path({str(db)!r}), False, {runs!r})
    w.resize(*map(int, size.split("x")))
    w.show()
    for _ in range(10):
        app.processEvents()
    items = []
    it = QTreeWidgetItemIterator(w.drops.tree)
    while it.value() is not None:
        if it.value().data(0, DROP):
            items.append(it.value())
        it += 1
    if items:
        w.drops.on_click(items[-1], 0)
    for _ in range(10):
        app.processEvents()
    c = w.chart
    (x0, x1), _ = c.plots[0].vb.viewRange()
    panel = c.widgets[0]
    at = panel.mapTo(c, QPoint(panel.width() // 2, panel.height() // 3))
    c.show_at(x0 + (x1 - x0) / 2, 0, at)
    for _ in range(5):
        app.processEvents()
    w.grab().save({str(out)!r} + "/{case}-clicked-" + size + ".png")
    w.close()
"""
    cmd = [sys.executable, "-c", code]
    done = subprocess.run(cmd, cwd=ROOT, env=env_of(out), capture_output=True, text=True, check=False)
    if done.returncode:
        print(f"FAILED interaction {case}: {done.stderr.strip()[-2000:]}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
