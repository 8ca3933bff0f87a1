"""Size and time of `benchlens report` on ten 1-hour runs: `python bench/report_size.py [RUNS] [--keep DIR]`
(offscreen). Target (issue 26): the page <= 5 MB.

The runs are bench/export_speed.py's nightly runs cut to 1 hour at 1 s (3,600 points per series:
sysbench tps, latency p95 and p99, threads; vmstat us/sy/wa; iostat w/s and r/s), synthetic but shaped
like the recorded runs of bench/drop_quality, 1 s stalls included. The report is made as the command
makes it (`benchlens report RUN ... --out FILE.html`, in this process) and its size printed whole and
by part: the figure's inline SVG, the tables, the rest. Then the same for the recorded runs of
bench/drop_quality/runs (all of them, real captures of 60-75 s each) when they are there.
`--keep DIR` keeps the pages to open in a browser."""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import export_speed  # bench/: the nightly runs' generator

from benchlens.app.cli import main

LIMIT = 5_000_000  # bytes
RECORDED = Path(__file__).resolve().parent / "drop_quality" / "runs"


def parts(page: str) -> dict[str, int]:
    """Bytes of the page's inline SVG, its tables and the rest."""
    svg = sum(len(m.encode()) for m in re.findall(r"<svg\b.*?</svg>", page, re.S))
    tables = sum(len(m.encode()) for m in re.findall(r"<table\b.*?</table>", page, re.S))
    return {"svg": svg, "tables": tables, "rest": len(page.encode()) - svg - tables}


def report(db: Path, names: list[str], out: Path) -> tuple[int, float]:
    t = time.perf_counter()
    rc = main(["report", *names, "--db", str(db), "--out", str(out)])
    if rc != 0:
        raise SystemExit(f"benchlens report failed ({rc})")
    return out.stat().st_size, time.perf_counter() - t


def say(what: str, out: Path, size: int, seconds: float) -> None:
    p = parts(out.read_text(encoding="utf-8"))
    verdict = "ok" if size <= LIMIT else "OVER"
    print(
        f"{what}: {size / 1e6:.2f} MB ({verdict}, limit {LIMIT / 1e6:.0f} MB) in {seconds:.1f} s; "
        f"SVG {p['svg'] / 1e6:.2f} MB, tables {p['tables'] / 1e6:.2f} MB, rest {p['rest'] / 1e6:.2f} MB"
    )


def main_(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="?", type=int, default=10)
    ap.add_argument("--keep", type=Path, help="a folder to keep the pages in")
    args = ap.parse_args(argv)
    export_speed.N = 3600  # one hour at 1 s (the generator reads its module's N)
    with tempfile.TemporaryDirectory() as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        db = Path(tmp) / "nightly.sqlite"
        names = export_speed.make_library(db, args.runs)
        out = where / f"report-{args.runs}x1h.html"
        size, seconds = report(db, names, out)
        say(f"{args.runs} runs of 1 h", out, size, seconds)
        if RECORDED.is_dir():
            folders = sorted(p for p in RECORDED.iterdir() if p.is_dir())
            rec_db = Path(tmp) / "recorded.sqlite"
            if main(["import", *map(str, folders), "--db", str(rec_db)]) == 0:
                out = where / "report-recorded.html"
                size, seconds = report(rec_db, [f.name for f in folders], out)
                say(f"{len(folders)} recorded runs", out, size, seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main_())
