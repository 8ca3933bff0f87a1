"""The diagnosis commands of the command line: `drops` (drops, recurring dips, latency rises and the
throughput's stability of a run), `explain` (why is this window slow: any --from/--to window against
the run's steady state) and `diff` (why run B differs from run A: every series ranked, per
transaction too). Registered by app/cli.py; errors are app.errors.BenchlensError, printed there as
one line."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any

from benchlens.app.errors import BenchlensError
from benchlens.app.store import Library


class DiagnoseError(BenchlensError):
    """A diagnosis command line that cannot be carried out as given."""


def add_parsers(sub: Any, db: argparse.ArgumentParser) -> None:
    """The `explain` and `diff` subcommands (`drops` is declared with the other analysis commands)."""
    exp = sub.add_parser("explain", parents=[db], help="why is this window slow: what changed in it")
    exp.add_argument("run", metavar="RUN")
    exp.add_argument("--from", dest="x_from", type=float, required=True, metavar="S", help="window start")
    exp.add_argument("--to", dest="x_to", type=float, required=True, metavar="S", help="window end")
    exp.add_argument("--align", choices=("run", "bench", "absolute"), default="run", help="what S counts from")
    exp.add_argument("--against", metavar="FROM:TO", help="reference window (default: the steady rest of the run)")
    exp.add_argument("--top", type=int, default=5, help="series named (default 5)")
    exp.add_argument("--json", action="store_true")

    diff = sub.add_parser("diff", parents=[db], help="why run B differs from run A: every series, per transaction")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    diff.add_argument("--top", type=int, default=20, help="series shown in text (default 20; JSON has all)")
    diff.add_argument("--json", action="store_true")


def _clean(x: Any) -> Any:
    """JSON has no NaN: missing values become null, recursively."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def cmd_drops(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.analysis.run_drops import run_findings
    from benchlens.app.model import SeriesRef
    from benchlens.app.rundata import LibraryRunData

    run = lib.run(args.run)
    ref = None
    if args.metric:
        try:
            ref = SeriesRef.parse(args.metric if ":" in args.metric else f"sysbench:{args.metric}")
        except ValueError as e:
            raise DiagnoseError(str(e)) from None
    found = run_findings(LibraryRunData(lib), run.id, ref, args.sensitivity, max(1, args.top))
    if args.json:
        print(json.dumps(_clean(found.as_json()), indent=1))
        return 0
    if found.stability is not None and found.stability.n:
        s = found.stability
        print(f"stability of {found.ref.spec()}: cv {s.cv:.2f}, {s.under_text()}, p1 {s.p1:.6g}, p5 {s.p5:.6g}")
    if not found.drops and not found.rises:
        print(f"no drops in {run.name!r}")
    for g in found.recurring:
        print(f"{_iso(g.pattern.start)} .. {_iso(g.pattern.end)}  {g.label()}")
    for d in sorted([*found.singles(), *found.rises], key=lambda d: d.drop.start):
        print(f"{_iso(d.drop.start)} .. {_iso(d.drop.end)}  {d.drop.label()}  (baseline {d.drop.baseline:.6g})")
        if not d.drop.tested:
            print(f"    {d.drop.untested()}")
        print(f"    {d.verdict()}")
        for k, phase in enumerate(d.phases, 1):  # the levels it went through, each explained
            when = f"{_iso(phase.drop.start)} .. {_iso(phase.drop.end)}"
            print(f"    phase {k}: {when}  {phase.drop.label()}: {phase.verdict()}")
            if not phase.drop.tested:
                print(f"        {phase.drop.untested()}")
        _print_changes(d.explain)
    if found.dismissed:
        print(
            f"{found.dismissed} dip(s) or rise(s) left out: not significant on their own (too few samples "
            "to tell them from the noise) and no other series confirms them (--sensitivity high allows more)"
        )
    return 0


def _iso(t: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S") if math.isfinite(t) else "-"


def _print_changes(changes: list[Any]) -> None:
    for c in changes:
        arrow = "up" if c.change > 0 else "down"
        # the first few (256 CPUs' %idle are one quantity: a line of 256 names said nothing more)
        also = f"  also {', '.join(r.spec() for r in c.similar[:3])}" if c.similar else ""
        also += f" and {len(c.similar) - 3} more" if len(c.similar) > 3 else ""
        print(
            f"    {c.ref.spec():40} {c.klass:11} {arrow:4} {c.before:.6g} -> {c.during:.6g}  "
            f"(effect {c.effect()}, score {c.weight:.1f}){also}"
        )


def _against(text: str | None) -> tuple[float, float] | None:
    if text is None:
        return None
    try:
        lo, hi = (float(x) for x in text.split(":"))
    except ValueError:
        raise DiagnoseError(f"--against {text!r} is not FROM:TO") from None
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise DiagnoseError("--against needs FROM < TO")
    return lo, hi


def cmd_explain(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.analysis.window import explain_window
    from benchlens.app.rundata import LibraryRunData

    if not (math.isfinite(args.x_from) and math.isfinite(args.x_to)) or args.x_to <= args.x_from:
        raise DiagnoseError("--from must be before --to")
    if args.top < 1:
        raise DiagnoseError("--top must be at least 1")
    run = lib.run(args.run)
    result = explain_window(
        LibraryRunData(lib), run.id, (args.x_from, args.x_to), args.align, _against(args.against), args.top
    )
    if args.json:
        print(json.dumps(_clean(result.as_json()), indent=1))
        return 0
    print(f"{_iso(result.start)} .. {_iso(result.end)} in {run.name!r}: {result.verdict()}")
    if math.isfinite(result.work):
        print(f"    throughput at {result.work:.0%} of the steady state")
    _print_changes(result.explain)
    return 0


def cmd_diff(lib: Library, args: argparse.Namespace) -> int:
    from benchlens.app.analysis.diff import diff_runs, series_by_quantity
    from benchlens.app.rundata import LibraryRunData
    from benchlens.app.ticks import reading

    a, b = lib.run(args.a), lib.run(args.b)
    result = diff_runs(LibraryRunData(lib), a.id, b.id)
    if args.json:
        print(json.dumps(_clean(result.as_json()), indent=1))
        return 0
    _print_config(result.config)
    for tag, s in zip(("A", "B"), result.stability, strict=True):
        print(
            f"{tag}: mean {reading(s.mean)}, cv {s.cv:.2f}, under half the median {s.under_half:.1%}, "
            f"p5 {reading(s.p5)}"
        )
    for note in result.spread:  # a CPU share on far fewer cores in one run (issue #25)
        print(note)
    print(f"{'series':44} {'class':11} {'A':>12} {'B':>12} {'change':>8} {'A/trx':>10} {'B/trx':>10}")
    for d, also in series_by_quantity(result.series)[: max(1, args.top)]:  # one row per quantity
        ch = "noise" if d.noise else f"{d.change:+.0%}" if math.isfinite(d.change) else "A=0"
        trx = ""  # a level (latency, queue, %util) has no per-transaction value
        if math.isfinite(d.per_trx_a) or math.isfinite(d.per_trx_b):
            trx = f" {reading(d.per_trx_a):>10} {reading(d.per_trx_b):>10} {d.trx_unit}".rstrip()
        more = f"  also {', '.join(r.spec() for r in also[:3])}" + (" …" if len(also) > 3 else "") if also else ""
        print(f"{d.ref.spec()[:44]:44} {d.klass:11} {reading(d.a):>12} {reading(d.b):>12} {ch:>8}{trx}{more}")
    return 0


def _print_config(config: Any) -> None:
    """The settings that differ, before anything measured: they are the likeliest reason."""
    if not config.changed and not config.only:
        said = "no settings differ" if all(config.known) else "settings: a run has no configuration imported"
        print(f"{said} ({config.known[0]} settings in A, {config.known[1]} in B)")
        return
    print(f"settings that differ ({config.known[0]} settings in A, {config.known[1]} in B):")
    for d in [*config.changed, *config.only]:
        print(f"    {d.label()}")
    if config.unlisted:
        print(f"    ({config.unlisted} variables only one server has, not listed)")


COMMANDS = {"drops": cmd_drops, "explain": cmd_explain, "diff": cmd_diff}
