"""`benchlens tag RUN KEY=VALUE ...` (a run's tags: version, commit, build, anything; `KEY=`
clears one) and `benchlens trend [--metric SPEC] [--stat S] [--group-by KEY ...] [--since DATE]
[--json]` (one point per run, change points per group: app/trend.py)."""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from typing import Any

from benchlens.app.analysis.runstats import STATS
from benchlens.app.errors import BenchlensError
from benchlens.app.store import Library
from benchlens.app.trend import THROUGHPUT, parse_since, trend_data


class TagError(BenchlensError):
    pass


def parse_tags(items: list[str]) -> dict[str, str]:
    """KEY=VALUE arguments as {key: value}; `KEY=` gives an empty value (clear)."""
    out = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise TagError(f"{item!r} is not KEY=VALUE (KEY= clears a tag)")
        out[key.strip()] = value.strip()
    return out


def add_parsers(sub: Any, db: argparse.ArgumentParser) -> None:
    tag = sub.add_parser("tag", parents=[db], help="set run tags (version, commit, build ...; KEY= clears)")
    tag.add_argument("run", metavar="RUN")
    tag.add_argument("tags", nargs="*", metavar="KEY=VALUE")
    tag.add_argument("--json", action="store_true", help="print the run's tags as JSON")
    tr = sub.add_parser("trend", parents=[db], help="one point per run, change points per group of comparable runs")
    tr.add_argument("--metric", default=THROUGHPUT, metavar="SPEC", help="SOURCE:METRIC[:ENTITY] (default: throughput)")
    tr.add_argument("--stat", choices=STATS, default="median")
    tr.add_argument(
        "--group-by",
        nargs="+",
        default=None,
        metavar="KEY",
        help="tags or facts (default: benchmark options threads host)",
    )
    tr.add_argument("--since", metavar="DATE", help="runs started on or after DATE (YYYY-MM-DD, UTC)")
    tr.add_argument("--json", action="store_true")


def cmd_tag(lib: Library, args: argparse.Namespace) -> int:
    run = lib.run(args.run)
    tags = parse_tags(args.tags)
    if tags:
        lib.set_tags(run.id, tags)
    now = lib.tags(run.id).get(run.id, {})
    if args.json:
        print(json.dumps({"run": run.name, "id": run.id, "tags": now}, indent=1))
    else:
        print(f"{run.name}: " + (", ".join(f"{k}={v}" for k, v in now.items()) or "no tags"))
    return 0


def cmd_trend(lib: Library, args: argparse.Namespace) -> int:
    data = trend_data(lib, args.metric, args.stat, args.group_by, parse_since(args.since))
    if args.json:
        print(json.dumps(data, indent=1))
        return 0
    print(f"{data['metric']} ({data['stat']} of each run's steady state), grouped by {', '.join(data['group_by'])}")
    if not data["groups"]:
        print("no runs with this metric")
    for g in data["groups"]:
        key = ", ".join(f"{k}={v}" for k, v in g["key"].items() if v is not None) or "(no key)"
        print(f"\n{key}  [{g['metric']}]  {len(g['points'])} runs")
        for c in g["changes"]:
            print(
                f"  {c['kind']:<11} at {c['run']} (after {c['previous']}): {c['before']:.6g} -> {c['after']:.6g} "
                f"({_pct(c['change'])}, p {c['p']:.2g})"
            )
        for s in g["known_shifts"]:
            print(f"  known shift at {s['run']} (marked by {s['by']})")
        for p in g["left_out"]:
            print(f"  left out: {p['run']} (by {p['by']})")
        if not g["changes"]:
            print(f"  no change point; last {g['points'][-1]['value']:.6g} ({_day(g['points'][-1]['time'])})")
    return 0


def _pct(x: float | None) -> str:
    return f"{x:+.1%}" if x is not None else "from 0"


def _day(t: float | None) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M") if t is not None else "?"


COMMANDS = {"tag": cmd_tag, "trend": cmd_trend}
