"""The command line (PRODUCT.md's contract): `benchlens import | runs | series | dump | drops |
explain | diff | summary | export | record | screenshot` (the diagnosis commands are in
app/cli_diagnose.py), and the app when no command is given (`--demo`: the
bundled demo runs). Every error derives from app.errors.BenchlensError and is printed as one line
on stderr with a non-zero exit code, never a traceback."""

from __future__ import annotations

import os

# numpy's OpenBLAS starts a thread per core when numpy loads, and it spins for a while: 0.04-0.07 s
# of CPU per command on 2 cores (perf: 3 % of a 2M-line diskstats import, beside the import's own
# threads). Nothing in benchlens multiplies matrices big enough to split; a value the user set is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import csv
import json
import math
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from benchlens.app import cli_diagnose, cli_report, cli_trend
from benchlens.app.cli_library import add_library_commands, cmd_library, push
from benchlens.app.errors import BenchlensError
from benchlens.app.store import Library

EXIT_ERROR = 1


class CliError(BenchlensError):
    """A command line that cannot be carried out as given."""


def default_db() -> Path:
    env = os.environ.get("BENCHLENS_DB")
    if env:
        return Path(env)
    if sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home()))
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "benchlens" / "library.sqlite"


def _iso(t: float | None) -> str:
    if t is None or not math.isfinite(t):
        return "-"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _clean(x: Any) -> Any:
    """JSON has no NaN: missing values become null."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x


def build_parser() -> argparse.ArgumentParser:
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument(
        "--db",
        type=Path,
        default=argparse.SUPPRESS,
        help="library file (default: $BENCHLENS_DB or the user data folder)",
    )
    p = argparse.ArgumentParser(prog="benchlens", parents=[db], description="Compare benchmark runs and system traces.")
    p.add_argument("--demo", action="store_true", help="open the app on the bundled demo runs, compared")
    sub = p.add_subparsers(dest="cmd", metavar="COMMAND")
    _library_commands(sub, db)
    _analysis_commands(sub, db)
    _output_commands(sub, db)
    add_library_commands(sub, db)  # library copy | notes (app/cli_library.py)
    cli_trend.add_parsers(sub, db)  # tag | trend (app/cli_trend.py)
    cli_report.add_parser(sub, db)  # report (app/cli_report.py)
    return p


def _library_commands(sub: Any, db: argparse.ArgumentParser) -> None:
    """import, runs, series, dump: what goes into the library and what it holds."""
    imp = sub.add_parser("import", parents=[db], help="import run folders or files")
    imp.add_argument("paths", nargs="+", metavar="PATH")
    imp.add_argument("--name", help="run name (default: the folder name)")
    imp.add_argument(
        "--tz",
        help="zone of times printed without one when the folder has no zone evidence "
        "(IANA name or +HH:MM; default: this machine's zone)",
    )
    imp.add_argument(
        "--interval",
        type=float,
        help="seconds between reports of files without times (default: inferred from the folder; this overrides it)",
    )
    imp.add_argument("--json", action="store_true")

    runs = sub.add_parser("runs", parents=[db], help="list runs")
    runs.add_argument("--json", action="store_true")

    ser = sub.add_parser("series", parents=[db], help="list the series of a run")
    ser.add_argument("run", metavar="RUN")
    ser.add_argument("--json", action="store_true")

    dump = sub.add_parser("dump", parents=[db], help="print one series")
    dump.add_argument("run", metavar="RUN")
    dump.add_argument("--source", required=True, metavar="FORMAT")
    dump.add_argument("--metric", required=True, metavar="NAME")
    dump.add_argument("--entity", metavar="NAME")
    fmt = dump.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true")
    fmt.add_argument("--csv", action="store_true")


def _analysis_commands(sub: Any, db: argparse.ArgumentParser) -> None:
    """drops and summary: what the runs say."""
    drops = sub.add_parser("drops", parents=[db], help="throughput drops of a run, explained")
    drops.add_argument("run", metavar="RUN")
    drops.add_argument("--metric", metavar="SOURCE:METRIC[:ENTITY]", help="the series to scan (default: tps)")
    drops.add_argument("--sensitivity", choices=("low", "normal", "high"), default="normal")
    drops.add_argument("--top", type=int, default=5, help="series named in each explanation (default 5)")
    drops.add_argument("--json", action="store_true")

    summ = sub.add_parser("summary", parents=[db], help="statistics, B vs A, top waits and load steps over a window")
    summ.add_argument("runs", nargs="+", metavar="RUN", help="one run, or two: A then B")
    summ.add_argument("--from", dest="x_from", type=float, metavar="S", help="window start (axis units of --align)")
    summ.add_argument("--to", dest="x_to", type=float, metavar="S", help="window end")
    summ.add_argument("--align", choices=("run", "bench", "absolute"), default="run")
    summ.add_argument("--metric", action="append", default=[], metavar="SPEC", help="SOURCE:METRIC[:ENTITY], repeated")
    summ.add_argument("--top", type=int, default=10, help="waits per run (default 10)")
    summ.add_argument("--format", choices=("text", "markdown", "csv", "json"), default="text")
    cli_diagnose.add_parsers(sub, db)


def _output_commands(sub: Any, db: argparse.ArgumentParser) -> None:
    """export, record, screenshot: files made from the runs, and run folders made for them."""
    exp = sub.add_parser("export", parents=[db], help="export the comparison as PNG, SVG, PDF or CSV (headless)")
    exp.add_argument("--run", action="append", default=[], metavar="RUN", help="a run (repeatable)")
    exp.add_argument(
        "--panel",
        action="append",
        default=[],
        metavar="SPEC",
        help="[TITLE=]SOURCE:METRIC[:ENTITY], '+' joins series in one panel (repeatable; default layout)",
    )
    exp.add_argument(
        "--preset",
        choices=("blog", "all"),
        help="blog (the default without --panel): 1200x675 and the story in at most 4 panels (throughput, "
        "latency, what explains the drops); all: every panel of the window's default layout",
    )
    exp.add_argument(
        "--steps", action="store_true", help="TPS and latency against concurrency (step loads; a fixed run is a point)"
    )
    exp.add_argument("--view", metavar="NAME", help="a saved view (runs, panels, offsets, alignment)")
    exp.add_argument("--out", required=True, type=Path, metavar="FILE.(png|svg|pdf|csv)")
    exp.add_argument("--size", metavar="WxH|blog|slide|square", help="default blog = 1200x675")
    exp.add_argument("--scale", type=float, default=1.0, help="PNG pixel ratio (2 for retina)")
    exp.add_argument("--title")
    exp.add_argument("--align", choices=("run", "bench", "absolute"))
    exp.add_argument("--from", dest="x_from", type=float, metavar="X", help="start of the time window (axis units)")
    exp.add_argument("--to", dest="x_to", type=float, metavar="X", help="end of the time window")
    exp.add_argument("--theme", choices=("publication", "screen"), default="publication")

    rec = sub.add_parser("record", help="capture a run folder around a benchmark command (after --)")
    rec.add_argument("folder", type=Path, metavar="FOLDER")
    rec.add_argument("--interval", type=int, default=1, help="monitor interval, seconds (default 1)")
    rec.add_argument("--mysql", metavar="'CLIENT OPTIONS'", help='e.g. "-uroot -S /run/mysqld/mysqld.sock"')
    rec.add_argument("--snapshot-every", type=float, default=10.0, help="seconds between MySQL snapshots")
    rec.add_argument(
        "--push", metavar="LIBRARY", help="then import the folder into this library (e.g. mysql://host/db)"
    )
    rec.add_argument("--tag", action="append", default=[], metavar="KEY=VALUE", help="a run tag (repeatable)")
    rec.epilog = "the benchmark command follows --, e.g. benchlens record run1 -- sysbench oltp_read_write run"

    shot = sub.add_parser("screenshot", parents=[db], help="render the main window offscreen to a PNG")
    shot.add_argument("out", metavar="FILE", type=Path)
    shot.add_argument("--demo", action="store_true", help="the bundled demo runs, compared")
    shot.add_argument("--run", action="append", default=[], metavar="RUN", help="a run to compare (repeatable)")
    shot.add_argument("--size", default="1400x900", metavar="WxH")
    shot.add_argument("--theme", choices=("system", "light", "dark"), default="system", help="the window's theme")
    shot.add_argument("--from", dest="x_from", type=float, help="zoomed: first second shown")
    shot.add_argument("--to", dest="x_to", type=float, help="zoomed: the last second shown")


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    bench: list[str] = []
    if argv[:1] == ["record"] and "--" in argv:  # everything after -- is the benchmark, options included
        cut = argv.index("--")
        argv, bench = argv[:cut], argv[cut + 1 :]
    args = parser.parse_args(argv)
    args.bench = bench
    explicit_db = getattr(args, "db", None)
    db_path = explicit_db or default_db()
    if getattr(args, "demo", False) and explicit_db is None:
        db_path = default_db().with_name("demo.sqlite")  # the demo never touches the user's library
    try:
        if args.cmd is None:
            from benchlens.app.ui.launch import run_app  # Qt only when the window is wanted

            return int(run_app(db_path, demo=args.demo))
        if args.cmd == "screenshot":
            return cmd_screenshot(db_path, args)
        if args.cmd == "record":
            return cmd_record(args)
        if args.cmd == "library":
            return cmd_library(args, db_path)
        with Library(db_path) as lib:
            return int(COMMANDS[args.cmd](lib, args))
    except BenchlensError as e:
        print(f"benchlens: {e}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("benchlens: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def cmd_import(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.clock import ClockError
    from benchlens.app.ingest import FolderError, Options, import_path

    if args.interval is not None and (args.interval <= 0 or not math.isfinite(args.interval)):
        raise CliError("--interval must be a positive number of seconds")
    if args.name and len(args.paths) > 1:
        raise CliError("--name needs a single PATH")
    reports, failed = [], []
    for path in args.paths:
        try:
            reports.append(import_path(lib, path, Options(name=args.name, tz=args.tz, interval=args.interval)))
        except (FolderError, ClockError) as e:
            failed.append(str(e))
    if args.json:
        print(json.dumps({"runs": [r.as_json() for r in reports], "errors": failed}, indent=1))
    else:
        for r in reports:
            state = "unchanged" if r.unchanged else "imported"
            print(f"run {r.id} {r.name!r}: {state}, {len(r.sources)} sources")
            for note in r.warnings:
                print(f"  warning: {note}")
            for src in r.sources:
                read = f"{src.series} series, {src.samples} samples" if src.series or not src.settings else ""
                read = ", ".join(x for x in (read, f"{src.settings} settings" if src.settings else "") if x)
                print(f"  {src.path}: {src.format} ({src.variant}), {read}")
                for note in src.notes:
                    print(f"    note: {note}")
                for w in src.warnings:
                    print(f"    warning: {w}")
            for skip in r.skipped:
                print(f"  skipped {skip['path']}: {skip['reason']}")
    for f in failed:
        print(f"benchlens: {f}", file=sys.stderr)
    return EXIT_ERROR if failed else 0


def cmd_runs(lib: Library, args: argparse.Namespace) -> int:
    runs = lib.runs()
    if args.json:
        print(json.dumps([{k: _clean(v) for k, v in r.as_json().items()} for r in runs], indent=1))
        return 0
    print(f"{'id':>4}  {'name':24} {'start (UTC)':19}  {'duration':>9}  {'host':16} sources")
    for r in runs:
        dur = f"{r.end - r.start:.0f} s" if r.start is not None and r.end is not None else "-"
        print(f"{r.id:>4}  {r.name[:24]:24} {_iso(r.start):19}  {dur:>9}  {(r.host or '-')[:16]:16} {r.sources}")
    return 0


def cmd_series(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.rundata import LibraryRunData

    run = lib.run(args.run)
    series = list(LibraryRunData(lib).series(run.id).values())  # the server's throughput too
    if args.json:
        print(
            json.dumps(
                [
                    {
                        "source": s.format,
                        "metric": s.metric,
                        "entity": s.entity,
                        "unit": s.unit,
                        "n": s.n,
                        "start": s.start,
                        "end": s.end,
                    }
                    for s in series
                ],
                indent=1,
            )
        )
        return 0
    for s in series:
        print(
            f"{s.format:8} {s.metric:14} {s.entity or '-':12} {s.unit or '-':9} {s.n:>8}  {_iso(s.start)} .. "
            f"{_iso(s.end)}"
        )
    return 0


def cmd_dump(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.model import SeriesRef
    from benchlens.app.rundata import LibraryRunData

    run = lib.run(args.run)
    data = LibraryRunData(lib)  # the stored series, and the server's throughput made of them
    info = data.info(run.id, SeriesRef(args.source, args.metric, args.entity or ""))
    info = info or lib.find_series(run.id, args.source, args.metric, args.entity)
    loaded = data.data(run.id, info.ref)
    assert loaded is not None  # info is the run's
    t, v = loaded
    if args.json:
        print(
            json.dumps(
                {
                    "source": info.format,
                    "metric": info.metric,
                    "entity": info.entity,
                    "unit": info.unit,
                    "t": [_clean(float(x)) for x in t],
                    "v": [_clean(float(x)) for x in v],
                }
            )
        )
    elif args.csv:
        w = csv.writer(sys.stdout, lineterminator="\n")
        w.writerow(["time_utc", "epoch", f"{info.metric} ({info.unit})" if info.unit else info.metric])
        for a, b in zip(t, v, strict=True):
            w.writerow([_iso(float(a)), repr(float(a)), "" if math.isnan(b) else repr(float(b))])
    else:
        for a, b in zip(t, v, strict=True):
            print(f"{_iso(float(a))}\t{float(b):g}")
    return 0


def cmd_summary(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.analysis.summary import Window, render, series_refs, summarize
    from benchlens.app.rundata import LibraryRunData

    if len(args.runs) > 2:
        raise CliError("summary takes one run, or two to compare (A then B)")
    if args.x_from is not None and args.x_to is not None and args.x_to <= args.x_from:
        raise CliError("--from must be before --to")
    if args.top < 1:
        raise CliError("--top must be at least 1")
    run_ids = [lib.run(r).id for r in args.runs]
    data = LibraryRunData(lib)
    try:
        refs = series_refs(data, run_ids, args.metric)
    except ValueError as e:
        raise CliError(str(e)) from None
    summary = summarize(data, run_ids, Window(args.x_from, args.x_to, args.align), refs, args.top)
    sys.stdout.write(render(summary, args.format))
    return 0


def cmd_export(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.analysis.layout import parse_panel
    from benchlens.app.figure import Comparison, blog_layout, default_layout, figure_of, findings_of, write_csv
    from benchlens.app.rundata import LibraryRunData

    suffix = args.out.suffix.lower()
    if suffix not in (".png", ".svg", ".pdf", ".csv"):
        raise CliError("--out must end in .png, .svg, .pdf or .csv")
    spec: dict[str, Any] = {}
    if args.view:
        saved = lib.view(args.view)
        if saved is None:
            raise CliError(f"no saved view {args.view!r}")
        spec = saved
    view = Comparison.from_json(spec)  # the window's own view format: the same figure as its export dialog
    view.runs = [lib.run(r).id for r in args.run] or view.runs
    data = LibraryRunData(lib)
    if not view.runs:
        raise CliError("give at least one --run (or a --view)")
    if args.steps:
        return _export_steps(data, view.runs, args)
    found = findings_of(data, view.runs)  # once, for the layout and the marks
    try:
        layout = default_layout if args.preset == "all" else blog_layout  # the story, everything when asked
        view.panels = [parse_panel(s) for s in args.panel] or view.panels or layout(data, view.runs, found)
    except ValueError as e:
        raise CliError(str(e)) from None
    if not view.panels:
        raise CliError("the runs have no series to plot")
    view.x_range = None  # a saved view's zoom may be stale: --from/--to choose the window
    if args.x_from is not None or args.x_to is not None:
        if args.x_from is None or args.x_to is None or args.x_to <= args.x_from:
            raise CliError("--from and --to go together, with --from < --to")
        view.x_range = (args.x_from, args.x_to)
    view.align = args.align or view.align
    fig = figure_of(data, view, args.title, found)

    def draw(out: Path, size: tuple[int, int], scale: float, theme: Any) -> None:
        from benchlens.app.render import export

        export(fig, out, size, scale, theme)

    return _write_export(args, partial(write_csv, fig), draw)


def _export_steps(data: Any, run_ids: list[int], args: argparse.Namespace) -> int:
    """`export --steps`: the step-load chart of the runs (app/stepchart.py), or its points as CSV."""
    from benchlens.app.stepchart import step_chart, write_csv

    if args.panel or args.preset:
        raise CliError("--steps draws its own two panels: without --panel or --preset")
    chart = step_chart(data, run_ids, args.title)

    def draw(out: Path, size: tuple[int, int], scale: float, theme: Any) -> None:
        from benchlens.app.stepplot import export

        export(chart, out, size, scale, theme)

    return _write_export(args, partial(write_csv, chart), draw)


def _write_export(args: argparse.Namespace, to_csv: Callable[[Path], None], draw: Callable[..., None]) -> int:
    """Write what `export` made: its data as CSV, or the drawing at --size, --scale and --theme
    (Qt started offscreen, headless)."""
    if args.out.suffix.lower() == ".csv":
        to_csv(args.out)
    else:
        size = _size(args.size or "blog")
        if not (0 < args.scale <= 8):
            raise CliError("--scale must be between 0 and 8")
        from benchlens.app.ui.launch import gui_app

        gui_app(offscreen=True)
        from benchlens.app.render import THEMES

        draw(args.out, size, args.scale, THEMES[args.theme])
    print(args.out)
    return 0


def _size(text: str) -> tuple[int, int]:
    from benchlens.app.render import SIZES

    if text in SIZES:
        return SIZES[text]
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise CliError(f"--size {text!r} is not WxH or one of {', '.join(SIZES)}") from None
    if not (100 <= w <= 10000 and 100 <= h <= 10000):
        raise CliError("--size must be between 100x100 and 10000x10000")
    return w, h


def cmd_record(args: argparse.Namespace) -> int:
    from benchlens.app.record import RecordError, record

    bench = args.bench
    if args.interval < 1:
        raise CliError("--interval must be a whole number of seconds >= 1")
    try:
        meta = record(
            args.folder, bench, args.interval, args.mysql, args.snapshot_every, cli_trend.parse_tags(args.tag)
        )
    except RecordError as e:
        raise CliError(str(e)) from None
    print(
        f"recorded {args.folder} (benchmark exit code {meta['bench_exit_code']}); "
        f"import it with: benchlens import {args.folder}"
    )
    if args.push:
        print(push(args.folder, args.push))
    return 0


def cmd_screenshot(db_path: Path, args: argparse.Namespace) -> int:
    from benchlens.app.ui.launch import screenshot

    try:
        w, h = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        raise CliError(f"--size {args.size!r} is not WxH") from None
    if args.out.suffix.lower() != ".png":
        raise CliError("screenshot writes a .png file")
    x_range = (args.x_from, args.x_to) if args.x_from is not None and args.x_to is not None else None
    if x_range is not None and not x_range[0] < x_range[1]:
        raise CliError("--from must be before --to")
    screenshot(args.out, db_path, demo=args.demo, runs=args.run, size=(w, h), theme=args.theme, x_range=x_range)
    print(args.out)
    return 0


COMMANDS = {
    "import": cmd_import,
    "runs": cmd_runs,
    "series": cmd_series,
    "dump": cmd_dump,
    "summary": cmd_summary,
    "export": cmd_export,
    **cli_diagnose.COMMANDS,
    **cli_trend.COMMANDS,
    **cli_report.COMMANDS,
}


if __name__ == "__main__":
    sys.exit(main())
