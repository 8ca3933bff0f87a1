"""The screenshots and exports issue #25's "Done when" asks for: `python bench/heat_screens.py [DIR]`.

For each case, the window at 1366x768 (`benchlens screenshot`, offscreen) and the export of every
panel of the default layout (`benchlens export --preset all`) at 1366x768, as PNG under DIR
(default /tmp/benchlens-heat-screens; not committed). A person looks at them: this checks nothing.

- one-hot-core: tests/fixtures/runs/one_hot_core (recorded: a hog pinned to CPU 1 with taskset);
- 32-of-256: 256 CPUs for 10 minutes, 32 of them at 90-99 % for 2 minutes (bench/heatmap_data.py);
- 32-of-256-day: the same over 24 h at 1 s (bench/ui_speed.py's heatmap case);
- busy-disk: 20 devices, one at 100 %util for the middle third (bench/heatmap_data.py);
- pkb-public: PerfKitBenchmarker's public mpstat sample (2 CPUs, one saturated; the fixture);
- sysstat-9-cpus: sysstat's own `tests/expected.mpstat-A` (../shared/samples, when present): 9 CPUs,
  the most of any public per-CPU capture found (docs/heatmaps.md: the search).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.heatmap_data import many_cpus, many_disks
from benchlens.app.store import Library

ROOT = Path(__file__).resolve().parents[1]
SIZE = "1366x768"


def benchlens(*args: str) -> None:
    """One benchlens command; what it says when it fails is printed and the next goes on."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "benchlens.app.cli", *args], env=env, cwd=ROOT)
    if done.returncode:
        print(f"benchlens {args[0]} failed ({done.returncode}): {' '.join(args)}")


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/benchlens-heat-screens")
    out.mkdir(parents=True, exist_ok=True)
    cases: dict[str, Path] = {}
    for name, make in (
        ("32-of-256", lambda lib: many_cpus(lib, 600)),
        ("32-of-256-day", lambda lib: many_cpus(lib, 86_400)),
        ("busy-disk", lambda lib: many_disks(lib, 600)),
    ):
        db = out / f"{name}.sqlite"
        if not db.exists():
            with Library(db) as lib:
                make(lib)
        cases[name] = db
    for name, folder in (
        ("one-hot-core", ROOT / "tests" / "fixtures" / "runs" / "one_hot_core"),
        ("pkb-public", ROOT / "tests" / "fixtures" / "mpstat" / "mpstat_12.x_pkb_JSON-A_hot-core_excerpt.txt"),
        ("sysstat-9-cpus", ROOT.parent / "shared" / "samples" / "mpstat" / "sysstat-tests_expected.mpstat-A"),
    ):
        db = out / f"{name}.sqlite"
        if folder.exists() and not db.exists():
            benchlens("import", str(folder), "--db", str(db))
        if db.exists():
            cases[name] = db
    for name, db in cases.items():
        with Library(db) as lib:
            runs = [str(r.id) for r in lib.runs()]
        picked = [a for r in runs for a in ("--run", r)]
        benchlens("screenshot", "--db", str(db), *picked, "--size", SIZE, str(out / f"{name}-window.png"))
        exported = out / f"{name}-export.png"
        benchlens("export", "--db", str(db), *picked, "--preset", "all", "--size", SIZE, "--out", str(exported))
        print(out / f"{name}-window.png", exported)


if __name__ == "__main__":
    main()
