"""`benchlens report RUN [RUN ...] --out FILE.html [--title T]`: the runs' comparison as one
self-contained HTML page (app/report.py). RUN is a run id or a unique run name, as for every
command; the first run is A, each other a B against it. Registered by app/cli.py; errors are
app.errors.BenchlensError, printed there as one line."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from benchlens.app.errors import BenchlensError
from benchlens.app.store import Library


class ReportError(BenchlensError):
    """A report command line that cannot be carried out as given."""


def add_parser(sub: Any, db: argparse.ArgumentParser) -> None:
    rep = sub.add_parser("report", parents=[db], help="the runs' comparison as one self-contained HTML file")
    rep.add_argument("runs", nargs="+", metavar="RUN", help="runs to compare: A first, then each B")
    rep.add_argument("--out", required=True, type=Path, metavar="FILE.html")
    rep.add_argument("--title", help="the page's title (default: the run names)")


def cmd_report(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.rundata import LibraryRunData

    if args.out.suffix.lower() not in (".html", ".htm"):
        raise ReportError("--out must end in .html")
    if not args.out.parent.is_dir():
        raise ReportError(f"no folder {str(args.out.parent)!r} to write the report in")
    run_ids = [lib.run(r).id for r in args.runs]
    twice = [r for r, rid in zip(args.runs, run_ids, strict=True) if run_ids.count(rid) > 1]
    if twice:
        raise ReportError(f"a run is given twice: {', '.join(twice)}")
    from benchlens.app.ui.launch import gui_app

    gui_app(offscreen=True)  # the figure is drawn by Qt, headless
    from benchlens.app.report import build_report, trend_of, write_report

    trend = trend_of(lib, run_ids)

    html = build_report(LibraryRunData(lib), run_ids, args.title, trend)
    try:
        write_report(html, args.out)
    except OSError as e:
        raise ReportError(f"cannot write {args.out}: {e.strerror or e}") from None
    print(args.out)
    return 0


COMMANDS = {"report": cmd_report}
