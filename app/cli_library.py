"""`benchlens library copy SRC DST [--run RUN ...]` (runs between any two libraries, file or
server), `benchlens library notes RUN` (the notes and drop decisions of a run: who made them and
when), and the push of `benchlens record ... --push LIBRARY` (the finished folder imported into a
library, a team's server library straight from the benchmark host)."""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from benchlens.app.store import Library


def add_library_commands(sub: Any, db: argparse.ArgumentParser) -> None:
    lib = sub.add_parser("library", help="copy runs between libraries; who annotated what")
    cmds = lib.add_subparsers(dest="library_cmd", metavar="ACTION", required=True)
    cp = cmds.add_parser("copy", help="copy runs with their series, annotations and views (idempotent)")
    cp.add_argument("src", metavar="SRC", help="a library file or mysql://[user@]host[:port]/database")
    cp.add_argument("dst", metavar="DST", help="the same, to copy to")
    cp.add_argument("--run", action="append", default=[], metavar="RUN", help="a run of SRC (repeatable; default all)")
    cp.add_argument("--json", action="store_true")
    notes = cmds.add_parser("notes", parents=[db], help="a run's notes and drop decisions: who and when")
    notes.add_argument("run", metavar="RUN")
    notes.add_argument("--json", action="store_true")


def cmd_library(args: argparse.Namespace, db_path: str | Path) -> int:
    if args.library_cmd == "copy":
        return _copy(args)
    with Library(db_path) as lib:
        return _notes(lib, args)


def _copy(args: argparse.Namespace) -> int:
    from benchlens.app.store.copy import copy_runs

    def progress(done: int, total: int, name: str, state: str) -> None:
        print(f"[{done}/{total}] {name}: {state}", file=sys.stderr, flush=True)

    with Library(args.src) as src, Library(args.dst) as dst:
        report = copy_runs(src, dst, args.run or None, progress)
    if args.json:
        print(json.dumps(report.as_json(), indent=1))
    else:
        print(
            f"{len(report.copied)} runs copied, {len(report.present)} already there, {len(report.views)} views copied"
        )
        for v in report.views_skipped:
            print(f"  view {v['name']!r} not copied: {v['reason']}")
    return 0


def _when(t: float | None) -> str | None:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S") if t is not None else None


def _notes(lib: Library, args: argparse.Namespace) -> int:
    run = lib.run(args.run)
    notes = lib.annotations(run.id)
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "id": a.id,
                        "kind": a.kind,
                        "state": a.state,
                        "label": a.label,
                        "start": a.start,
                        "end": a.end,
                        "author": a.author,
                        "created": a.created,
                        "updated": a.updated,
                        "updated_by": a.updated_by,
                    }
                    for a in notes
                ],
                indent=1,
            )
        )
        return 0
    for a in notes:
        what = a.label if a.kind == "note" else f"drop {a.state or 'undecided'}" + (f": {a.label}" if a.label else "")
        by = f"{a.author or '?'} {_when(a.created) or ''}".strip()
        changed = f", changed by {a.updated_by} {_when(a.updated)}" if a.updated is not None else ""
        print(f"{_when(a.start)} .. {_when(a.end)}  {what}  ({by}{changed})")
    return 0


def push(folder: Path, target: str | Path) -> str:
    """Import a recorded folder into the library `target`; the line that says what happened."""
    from benchlens.app.ingest import import_path

    with Library(target) as lib:
        report = import_path(lib, folder)
        name = lib.name
    state = "already there" if report.unchanged else "imported"
    return f"pushed {folder} to {name}: run {report.id} {report.name!r} {state}, {len(report.sources)} sources"
